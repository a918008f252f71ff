#!lua flags=no-write
return redis.call('GET', KEYS[1])
