--- Every field of a hash.
---@key record string the hash
---@return table<string,string>
return redis.call('HGETALL', KEYS[1])
