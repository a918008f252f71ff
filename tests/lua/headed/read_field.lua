--- One field of a hash, or nil.
---@key record string the hash
---@param field string the field
---@return string?
return redis.call('HGET', KEYS[1], ARGV[1])
