-- Replaces a value only if there is one: the status OK, or nil.
return redis.call('SET', KEYS[1], ARGV[1], 'XX')
