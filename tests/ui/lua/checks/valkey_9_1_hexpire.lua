-- Hash field expiry: HEXPIRE exists on Valkey 9.1, not on Valkey 8.1 or Redis 7.0.
return redis.call('HEXPIRE', KEYS[1], ARGV[1], 'FIELDS', 1, ARGV[2])
