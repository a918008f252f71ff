---@key lock string
---@param token string
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
