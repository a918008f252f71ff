#!lua flags=no-writes
-- Replies with the string value of KEYS[1] (nil when it is missing). Flagged
-- no-writes, so it runs as EVALSHA_RO / EVAL_RO and is allowed on a replica.
return redis.call('GET', KEYS[1])
