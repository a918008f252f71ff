return redis.call('SET', KEYS[1])
