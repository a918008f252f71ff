---@key counter string
---@return integer
return redis.call('INCR', KEYS[1])
