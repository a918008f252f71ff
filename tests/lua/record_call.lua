-- Adds the call's id ARGV[1] to the set KEYS[1] and replies the set's size:
-- afterwards the set tells, call by call, which calls took effect.
redis.call('SADD', KEYS[1], ARGV[1])
return redis.call('SCARD', KEYS[1])
