-- Adds the call's id ARGV[1] to the set KEYS[1] and one to the counter
-- KEYS[2], replying the counter's new value: a call applied twice adds its
-- id once but counts twice, so the counter then exceeds the set's size.
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[2])
