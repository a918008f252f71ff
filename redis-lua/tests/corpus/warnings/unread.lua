---@key counter string
---@key shadow string kept for slot routing
---@return integer
return redis.call('INCR', KEYS[1])
