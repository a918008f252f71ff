-- A fixed-window rate limit, the script of examples/tracing.rs: counts a hit
-- in the window's counter KEYS[1], which expires ARGV[2] seconds after the
-- window's first hit, and replies how many hits the limit ARGV[1] still
-- allows in the window, or -1 once it is exceeded.
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
if not limit or not window or window < 1 then
    return redis.error_reply('ERR limit and window must be numbers, the window at least 1')
end
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then
    redis.call('EXPIRE', KEYS[1], window)
end
if hits > limit then
    return -1
end
return limit - hits
