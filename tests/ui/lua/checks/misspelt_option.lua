-- Takes a lock for a while, if nobody holds it.
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NXX')
