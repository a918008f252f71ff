---@key counter string
---@return integer the counter
return redis.call('GET', KEYS[1])
