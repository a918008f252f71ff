--- Releases a lock, but only for the holder of its token.
---
--- Replies 1 when the caller held the lock and it is now released, 0 when the
--- lock is gone (expired, or never taken) or held by somebody else, whose lock
--- is left untouched.
--- (Not `... or True`: `True` is an undefined global, which fails at run time.)
---@key lock string the lock key
---@param token string the caller's token
---@return boolean
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
