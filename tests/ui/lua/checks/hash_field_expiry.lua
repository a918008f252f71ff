-- Sets a field that expires: HSET, then HEXPIRE (Redis 7.4 and later),
-- then reads it back with HGETEX (Redis 8.0 and later), which replies one
-- value (or nil) per field named.
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HEXPIRE', KEYS[1], ARGV[3], 'FIELDS', 1, ARGV[1])
return redis.call('HGETEX', KEYS[1], 'FIELDS', 1, ARGV[1])
