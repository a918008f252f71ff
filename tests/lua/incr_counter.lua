-- Adds one to the counter in KEYS[1] and replies with its new value: a write
-- whose every success is visible afterwards, for the restart and pool tests.
return redis.call('INCR', KEYS[1])
