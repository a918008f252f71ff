#!lua flags=no-write
-- A misspelt shebang flag.
return redis.call('GET', KEYS[1])
