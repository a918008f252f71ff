-- Every field of a hash: always an array.
local fields = redis.call('HGETALL', KEYS[1])
return fields
