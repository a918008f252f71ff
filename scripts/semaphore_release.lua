-- Releases a holder's slot of a counting semaphore.
--
-- KEYS[1]  the semaphore (see semaphore_acquire.lua)
-- ARGV[1]  the timeout in milliseconds, as acquired with
-- ARGV[2]  the holder's token
--
-- Removes the token and replies 1 when it was a holder; 0 when it was not
-- (released before, evicted, or timed out: then the slot may already have
-- gone to another client). A timeout out of range is an error, and changes
-- nothing.
local timeout = tonumber(ARGV[1])
if not (timeout and timeout >= 1 and timeout <= 1e12 and timeout % 1 == 0) then
    return redis.error_reply('ERR semaphore timeout must be whole milliseconds from 1 to 1e12')
end

local acquired = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not acquired then
    return 0
end
redis.call('ZREM', KEYS[1], ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
if tonumber(acquired) <= now - timeout * 1000 then
    return 0
end
return 1
