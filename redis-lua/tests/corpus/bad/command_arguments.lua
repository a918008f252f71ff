-- Each call is refused by the server's parser whatever the keys hold.
redis.call('SCAN', 0, 'MATCHING', 'job:*')
redis.call('GETEX', KEYS[1], 'PX')
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'XX')
redis.call('PEXPIRE', KEYS[1], '5s')
redis.call('HMSET', KEYS[1], 'f1', 'v1', 'f2')
return redis.call('ZINTERSTORE', KEYS[1], 2, KEYS[2], KEYS[3], 'AGGREGATE', 'AVG')
