-- redis-lua: allow(unknown_command)
return redis.call('GET', KEYS[1])
