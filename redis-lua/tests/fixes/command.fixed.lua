local value = redis.call('GET', KEYS[1])
redis.pcall("hset", KEYS[2], 'seen', 1)
return value
