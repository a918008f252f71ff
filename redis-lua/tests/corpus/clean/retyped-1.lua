-- The key changes type only after it is deleted, or in another branch.
redis.call('SADD', KEYS[1], ARGV[1])
local members = redis.call('SMEMBERS', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[1], #members)
return redis.call('GET', KEYS[1])
