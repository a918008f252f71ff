--- Settles a holder of a counting semaphore: refreshes it (restarts its
--- timeout) or releases it (removes it), if it is still a holder.
---
--- Replies 1 when the token was a holder, not timed out: refreshed, its
--- timeout starts again now; released, it is gone. Replies 0 when it is not a
--- holder: released before, evicted, or timed out (then its slot may already
--- have gone to another client). A token that timed out is removed here, even
--- if no acquire evicted it yet: once timed out, a holder stays out. A timeout
--- out of range or another action is an error, and changes nothing.
--- (A token that timed out is not refreshed, and the time is the server's,
--- not the client's.)
---@key semaphore string the semaphore (see semaphore_acquire.lua)
---@param timeout_ms integer the timeout in milliseconds, as given to acquire
---@param token string the holder's token
---@param action string 'refresh' or 'release'
---@return boolean
local timeout = tonumber(ARGV[1])
if not (timeout and timeout >= 1 and timeout <= 1e12 and timeout % 1 == 0) then
    return redis.error_reply('ERR semaphore timeout must be whole milliseconds from 1 to 1e12')
end
local action = ARGV[3]
if action ~= 'refresh' and action ~= 'release' then
    return redis.error_reply('ERR semaphore action must be refresh or release')
end

local acquired = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not acquired then
    return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local held = tonumber(acquired) > now - timeout * 1000
if action == 'release' or not held then
    redis.call('ZREM', KEYS[1], ARGV[2])
    if held then
        return 1
    end
    return 0
end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], timeout)
return 1
