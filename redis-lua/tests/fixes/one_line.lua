if redis.call('GTE', KEYS[1]) == nil then return tonumbr(ARGV[1]) end
return 0
