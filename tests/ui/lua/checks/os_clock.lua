-- os.clock exists on Redis 7.4 and later and on Valkey, not on Redis 7.0 or 7.2.
local started = os.clock()
return redis.call('INCR', KEYS[1])
