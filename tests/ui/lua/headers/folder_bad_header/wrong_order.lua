---@param amount integer
---@key counter string
---@return integer
return redis.call('INCRBY', KEYS[1], ARGV[1])
