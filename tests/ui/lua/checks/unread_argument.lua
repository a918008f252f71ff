-- Never reads ARGV[2], although the binding passes it.
return redis.call('SET', KEYS[1], ARGV[1])
