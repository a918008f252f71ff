redis.call('SOMEMODULECMD', KEYS[1])
return redis.call('RENAME', KEYS[1], KEYS[2])
