--- Submits a member's score to a capped leaderboard: a sorted set that keeps
--- at most N members, the best scores seen, each score between 0 and a ceiling.
---
--- In order:
--- 1. A score outside [0, ceiling], NaN, or a bad N or ceiling: error reply,
---    nothing changes.
--- 2. A set holding more than N members (N was lowered) loses its lowest
---    until it holds N.
--- 3. A member already in the set takes the new score, higher or lower:
---    replies {'updated'}.
--- 4. With fewer than N members, the member joins: replies {'added'}.
--- 5. Otherwise it must beat the lowest score strictly (ties keep the member
---    already in): the lowest member (among equal lowest scores, the first by
---    name, as Redis orders them) leaves and the new one joins: replies
---    {'added', <evicted member>}. If not: replies {'rejected'}.
---
--- (The pitfalls it avoids: not checking the ceiling, evicting several
--- members for one, and ignoring updates of members already in the set unless
--- they beat the lowest.)
---@key board string the leaderboard, a sorted set
---@param capacity integer N, the most members it keeps (a whole number >= 0)
---@param ceiling number the score ceiling (>= 0; `inf` for none)
---@param score number the score, from 0 to the ceiling
---@param member string the member
---@return string[]
local capacity = tonumber(ARGV[1])
local ceiling = tonumber(ARGV[2])
local score = tonumber(ARGV[3])
if not (capacity and capacity >= 0 and capacity == math.floor(capacity)) then
    return redis.error_reply('ERR leaderboard capacity must be a whole number >= 0')
end
-- `x ~= x` only for NaN, which compares false with everything.
if not ceiling or ceiling ~= ceiling or ceiling < 0 then
    return redis.error_reply('ERR leaderboard ceiling must be a number >= 0')
end
if not score or score ~= score or score < 0 or score > ceiling then
    return redis.error_reply('ERR leaderboard score must be between 0 and the ceiling')
end
-- The exact double, whatever spelling ARGV used.
local exact = string.format('%.17g', score)

local size = redis.call('ZCARD', KEYS[1])
if size > capacity then
    redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - capacity - 1)
    size = capacity
end
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then
    redis.call('ZADD', KEYS[1], exact, ARGV[4])
    return {'updated'}
end
if size < capacity then
    redis.call('ZADD', KEYS[1], exact, ARGV[4])
    return {'added'}
end
if capacity > 0 then
    local lowest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    if score > tonumber(lowest[2]) then
        redis.call('ZREM', KEYS[1], lowest[1])
        redis.call('ZADD', KEYS[1], exact, ARGV[4])
        return {'added', lowest[1]}
    end
end
return {'rejected'}
