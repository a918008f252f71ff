-- Adds one to the counter in KEYS[1], then fails: an error that comes after
-- a write, which Redis does not undo.
redis.call('INCR', KEYS[1])
return redis.error_reply('HALFWAY failed after writing')
