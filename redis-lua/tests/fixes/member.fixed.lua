local count = redis.call('INCR', KEYS[1])
return string.format('%d', count)
