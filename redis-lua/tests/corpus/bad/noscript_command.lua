redis.call('MULTI')
return redis.call('INCR', KEYS[1])
