-- Sets the value only if the key holds the expected one.
return redis.call('SET', KEYS[1], ARGV[1], 'IFEQ', ARGV[2])
