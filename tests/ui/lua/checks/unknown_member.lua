-- Misspells redis.call.
return redis.calll('GET', KEYS[1])
