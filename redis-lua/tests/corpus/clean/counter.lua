---@key counter string the counter
---@param by integer how much to add
---@return integer the new value
return redis.call('INCRBY', KEYS[1], ARGV[1])
