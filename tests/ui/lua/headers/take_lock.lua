--- Takes a lock (a fixture of the header UI tests).
---@key lock string the lock's key
---@param ttl_ms integer time to live in milliseconds
---@param token string the caller's token
---@return string? "OK" when taken
return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])
