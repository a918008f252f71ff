-- GET replies nil for a missing key.
return redis.call('GET', KEYS[1])
