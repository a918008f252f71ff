-- Counts its runs in KEYS[1], then fails with an error whose code is NOSCRIPT:
-- a script error that a client must not take for a missing script.
redis.call('INCR', KEYS[1])
return redis.error_reply('NOSCRIPT raised by the script itself')
