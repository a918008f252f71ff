#!lua flags=no-writes
return redis.call('INCR', KEYS[1])
