-- Moves the oldest pending job to the in-progress list and records who took
-- it and when (server time), or replies nil when nothing is pending.
--
-- KEYS[1]  the pending jobs (a list, oldest at the head)
-- KEYS[2]  the jobs in progress (a list)
-- KEYS[3]  the hash of job -> "worker@seconds"
-- ARGV[1]  the worker's name
-- Reply    the job, or nil when the queue is empty
local job = redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
if not job then
    return nil
end
local now = redis.call('TIME')
redis.call('HSET', KEYS[3], job, ARGV[1] .. '@' .. now[1])
return job
