return redis.call('OBJECT', 'ENCODINGG', KEYS[1])
