-- Counts calls: always replies an integer.
return redis.call('INCR', KEYS[1])
