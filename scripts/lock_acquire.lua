-- Takes a lock if nobody holds it, always with an expiry.
--
-- KEYS[1]  the lock key
-- ARGV[1]  time to live in seconds (a positive integer)
-- ARGV[2]  the caller's token (a random 128-bit id), which release and extend check
--
-- Replies "OK" when the lock was taken, nil when somebody holds it.
-- (SET NX EX in one command: the seed's EXISTS-then-SETEX did the same in two.)
return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[1])
