-- os.clock exists on Valkey 8.1 and 9.1 (and Redis 7.4), not on Redis 7.0.
local started = os.clock()
return redis.call('INCR', KEYS[1])
