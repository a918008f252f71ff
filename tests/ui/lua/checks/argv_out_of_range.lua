-- Reads ARGV[3] while the binding declares two arguments.
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
