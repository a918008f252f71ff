-- 100 bytes: INCR KEYS[1], reply the count.
return redis.call('INCR', KEYS[1])
-------------------
