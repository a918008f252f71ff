--- Reads a counter.
---@kye counter string
---@return integer
return redis.call('GET', KEYS[1])
