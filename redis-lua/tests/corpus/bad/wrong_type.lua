-- The key is made a set, then read as a string: WRONGTYPE on every run.
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('GET', KEYS[1])
