--- Acquires a slot of a counting semaphore if fewer than `limit` holders are
--- in, after evicting the holders that timed out.
---
--- Replies 1 when the caller is now a holder, 0 when `limit` holders are in.
--- A limit or timeout out of range is an error, and changes nothing. The set
--- expires when its newest holder times out, so an abandoned semaphore leaves
--- no key behind.
---
--- Time comes from the server (TIME), never from the caller: a client with a
--- skewed clock can neither evict live holders nor stay in forever.
---@key semaphore string the semaphore: a sorted set, member = holder token, score = the server time (Unix microseconds) it acquired or last refreshed
---@param limit integer the limit: how many holders at once (a positive integer)
---@param timeout_ms integer the timeout in milliseconds (an integer from 1 to 1e12): a holder that has not refreshed for that long is out
---@param token string the caller's token (a random 128-bit id)
---@return boolean
local limit = tonumber(ARGV[1])
local timeout = tonumber(ARGV[2])
if not (limit and limit >= 1 and limit % 1 == 0) then
    return redis.error_reply('ERR semaphore limit must be a positive integer')
end
if not (timeout and timeout >= 1 and timeout <= 1e12 and timeout % 1 == 0) then
    return redis.error_reply('ERR semaphore timeout must be whole milliseconds from 1 to 1e12')
end

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - timeout * 1000)
if redis.call('ZCARD', KEYS[1]) >= limit then
    return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], timeout)
return 1
