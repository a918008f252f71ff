-- Option words in any case, given as ARGV, numbers as text, score bounds.
redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], '5000')
redis.call('HMSET', KEYS[1], 'f1', 'v1', 'f2', ARGV[1])
local members = redis.call('ZRANGEBYSCORE', KEYS[2], '(1', '+inf', 'LIMIT', 0, 10)
redis.call('ZINTERSTORE', KEYS[3], 2, KEYS[2], KEYS[3], 'aggregate', 'max')
return members
