local value = redis.call('GTE', KEYS[1])
redis.pcall("hsett", KEYS[2], 'seen', 1)
return value
