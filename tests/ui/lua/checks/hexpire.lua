-- Hash field expiry: HEXPIRE exists on Redis 7.4 and later and on Valkey 9.1.
return redis.call('HEXPIRE', KEYS[1], ARGV[1], 'FIELDS', 1, ARGV[2])
