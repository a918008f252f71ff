-- Reads a second key while the binding declares one.
return redis.call('GET', KEYS[2])
