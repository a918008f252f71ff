-- A command of a newer server than the tables know, allowed on purpose.
-- redis-lua: allow(unknown-commands)
return redis.call('CF.ADD', KEYS[1], ARGV[1]) + redis.call('FT_SEARCH', KEYS[1])
