--- Extends a lock: gives it a new time to live, but only for the holder of its
--- token. A holder whose work outlasts the time to live calls this in time.
---
--- Replies 1 when the caller holds the lock, which now expires ARGV[1] ms from
--- now; 0 when the lock is gone (expired) or held by somebody else: the caller
--- has lost it. A time to live that is not a positive integer is an error, and
--- changes nothing.
---
--- SET XX PX rather than PEXPIRE: PEXPIRE with 0 or a negative time deletes
--- the key, while SET rejects such a time like acquiring does.
---@key lock string the lock key
---@param ttl_ms integer the new time to live in milliseconds, from now (a positive integer)
---@param token string the caller's token
---@return boolean
if redis.call('GET', KEYS[1]) ~= ARGV[2] then
    return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'XX', 'PX', ARGV[1])
return 1
