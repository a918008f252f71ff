-- Replies with a table holding an error: {1, <the error of INCR on a string>}.
redis.call('SET', KEYS[1], 'not a number')
return {1, redis.pcall('INCR', KEYS[1])}
