#!lua flags=no-writs
-- A misspelt shebang flag.
return redis.call('GET', KEYS[1])
