-- Keeps the server busy for ARGV[1] milliseconds, reading its clock in a
-- loop, and replies how many times it read it. With ARGV[2] = 'write' it
-- first sets KEYS[1], after which SCRIPT KILL can no longer stop it. The
-- time is capped at 2 s, so that a kill that fails cannot hang a test.
local budget = math.min(tonumber(ARGV[1]), 2000)
if ARGV[2] == 'write' then
    redis.call('SET', KEYS[1], 'written')
end
local function now_ms()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
end
local deadline = now_ms() + budget
local reads = 0
repeat
    reads = reads + 1
until now_ms() >= deadline
return reads
