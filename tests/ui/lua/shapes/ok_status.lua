-- Stores a value and says so with a status.
redis.call('SET', KEYS[1], ARGV[1])
return redis.status_reply('OK')
