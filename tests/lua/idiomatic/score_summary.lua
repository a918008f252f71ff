#!lua flags=no-writes
-- Summarizes a leaderboard without writing anything, so it runs on replicas
-- and under EVALSHA_RO: member count, floored mean, best member and the
-- members at or above a threshold, with their display names from a hash.
--
-- KEYS[1]  the leaderboard (a sorted set)
-- KEYS[2]  the hash of member -> display name
-- ARGV[1]  the threshold score
-- Reply    {members, floor of the mean score (0 when empty), best member's
--           display name ("" when empty), "name=score" of each member at or
--           above the threshold, best first}
local entries = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local count = #entries / 2
if count == 0 then
    return {0, 0, '', {}}
end

local sum, above = 0, {}
local threshold = tonumber(ARGV[1])
for i = 1, #entries, 2 do
    local member, score = entries[i], tonumber(entries[i + 1])
    sum = sum + score
    if score >= threshold then
        local name = redis.call('HGET', KEYS[2], member) or member
        above[#above + 1] = name .. '=' .. tostring(score)
    end
end

local best = redis.call('HGET', KEYS[2], entries[1]) or entries[1]
return {count, math.floor(sum / count), best, above}
