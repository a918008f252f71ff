-- The lock's TTL is passed as KEYS[2]: on a cluster it is hashed like a key.
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', KEYS[2])
