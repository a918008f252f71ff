-- Adds a job to a bounded queue: replies with a status, or with an error
-- reply carrying its own code when the queue is full or the job is empty.
--
-- KEYS[1]  the queue (a list)
-- ARGV[1]  the job
-- ARGV[2]  the queue's capacity
-- Reply    status "QUEUED"; error "FULL ...", "EMPTYJOB ..." or "TOOBIG ..."
-- Why a job cannot be queued, or nil when it can.
local function problem(job)
    if job == '' then
        return 'EMPTYJOB a job needs a payload'
    elseif #job > 512 then
        return string.format('TOOBIG a job has at most 512 bytes, not %d', #job)
    end
    return nil
end

local why = problem(ARGV[1])
if why then
    return redis.error_reply(why)
end
local capacity = tonumber(ARGV[2])
local length = redis.call('LLEN', KEYS[1])
if length >= capacity then
    return redis.error_reply(string.format('FULL %s holds %d of %d jobs', KEYS[1], length, capacity))
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return redis.status_reply('QUEUED')
