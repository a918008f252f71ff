-- A script without a signature header.
return redis.call('INCR', KEYS[1])
