-- `!=` where Lua writes `~=`.
return redis.call('GET', KEYS[1]) != ARGV[1]
