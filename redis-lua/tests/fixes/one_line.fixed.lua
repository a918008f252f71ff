if not redis.call('GET', KEYS[1]) then return tonumber(ARGV[1]) end
return 0
