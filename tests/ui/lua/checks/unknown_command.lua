-- Misspells a command name.
return redis.call('GETT', KEYS[1])
