-- Pops a batch of jobs from the first non-empty of two priority lists (high
-- first) with LMPOP (Redis 7.0), and counts the jobs left in both.
--
-- KEYS[1]  the high-priority list
-- KEYS[2]  the low-priority list
-- ARGV[1]  the batch size
-- Reply    {the list popped from, the jobs, jobs left in both lists}, or nil
--          when both lists are empty
local popped = redis.call('LMPOP', 2, KEYS[1], KEYS[2], 'LEFT', 'COUNT', ARGV[1])
if not popped then
    return nil
end
local left = 0
for _, key in ipairs(KEYS) do
    left = left + redis.call('LLEN', key)
end
return {popped[1], popped[2], left}
