-- Releases a lock, but only for the holder of its token.
--
-- KEYS[1]  the lock key
-- ARGV[1]  the caller's token
--
-- Replies 1 when the caller held the lock and it is now released, 0 when the
-- lock is gone (expired, or never taken) or held by somebody else, whose lock
-- is left untouched.
-- (The seed returned `... or True`, an undefined global that fails at run time.)
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
