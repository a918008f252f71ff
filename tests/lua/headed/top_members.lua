--- The members of a sorted set, best first.
---@key board string the sorted set
---@param count integer how many
---@return string[]
return redis.call('ZREVRANGE', KEYS[1], 0, ARGV[1] - 1)
