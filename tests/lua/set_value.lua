-- Stores ARGV[1] under KEYS[1] and replies with what is stored there, for
-- the injection tests (tests/integration/bad_input/injection.rs): whatever a
-- value holds, it is data.
redis.call('SET', KEYS[1], ARGV[1])
return redis.call('GET', KEYS[1])
