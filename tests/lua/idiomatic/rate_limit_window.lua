-- Fixed-window rate limiter on the server's clock: counts a hit in the
-- current window's bucket and says whether it is within the limit. Bucket
-- keys are built with string.format by a closure over the prefix.
--
-- KEYS[1]  the limiter's key prefix; buckets are "<prefix>:<window index>"
-- ARGV[1]  the window length in seconds
-- ARGV[2]  hits allowed per window
-- Reply    {1 if allowed else 0, hits in this window, bucket key}
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])

-- A closure: `prefix` and `window` are upvalues of the returned function.
local function bucket_namer(prefix)
    return function(seconds)
        return string.format('%s:%d', prefix, math.floor(seconds / window))
    end
end

-- Another one, with state: counts how many commands the script sent.
local sent = 0
local function call(...)
    sent = sent + 1
    return redis.call(...)
end

local now = call('TIME')
local bucket = bucket_namer(KEYS[1])(tonumber(now[1]))
local hits = call('INCR', bucket)
if hits == 1 then
    call('EXPIRE', bucket, window * 2)
end
redis.log(redis.LOG_VERBOSE, string.format('rate limit %s: %d hit(s), %d command(s)', bucket, hits, sent))
local allowed = 0
if hits <= limit then
    allowed = 1
end
return {allowed, hits, bucket}
