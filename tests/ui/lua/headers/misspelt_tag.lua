--- A header with a misspelt tag and an unknown type.
---@key lock string
---@parm ttl_ms integer
---@param token text
---@return string?
return redis.call('SET', KEYS[1], ARGV[1], 'NX')
