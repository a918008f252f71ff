return redis.call('RENAME', KEYS[1], KEYS[2])
