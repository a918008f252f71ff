#!lua flags=no-writes
-- A read-only script that writes.
redis.call('SET', KEYS[1], 'x')
return redis.call('GET', KEYS[1])
