---@key user string
---@return integer
return redis.call('HGETALL', KEYS[1])
