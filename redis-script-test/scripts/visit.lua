-- Counts a visit of the page KEYS[1]; replies the visits so far.
return redis.call('INCR', KEYS[1])
