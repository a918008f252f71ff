#!lua flags=no-writes,allow-stale
local v = redis.call('GET', KEYS[1])
return v
