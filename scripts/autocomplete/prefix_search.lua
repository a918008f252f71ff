--- Autocomplete on a prefix: the members of a sorted set (all with score 0,
--- so ordered by name) that start with the prefix, without WATCH retries.
---
--- Names use the letters a-z only, so `{` (after `z`) makes each sentinel sort
--- right after every name it should follow. The script adds both sentinels,
--- reads the names between them, and removes them again, all atomically.
--- Replies the matching names in order, at most ARGV[3] of them. Members that
--- contain `{` (sentinels a failed caller left behind) are never replied.
--- Errors, changing nothing, when a sentinel lacks `{` (it could be a real
--- name, which the script would then remove) or is already in the set.
---@key members string the sorted set of names, `members:<guild>`
---@param start string the start sentinel: the prefix with its last character replaced by the one before it, then `{` and a random id
---@param end string the end sentinel: the prefix, then `{` and the same random id
---@param limit integer the most names to reply
---@return string[]
if not string.find(ARGV[1], '{', 1, true) or not string.find(ARGV[2], '{', 1, true) then
    return redis.error_reply('ERR autocomplete sentinels must contain {')
end
local limit = tonumber(ARGV[3])
if not limit or limit < 0 then
    return redis.error_reply('ERR autocomplete limit must be a non-negative number')
end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZSCORE', KEYS[1], ARGV[2]) then
    -- Not ours to remove afterwards.
    return redis.error_reply('ERR autocomplete sentinel already present')
end
redis.call('ZADD', KEYS[1], 0, ARGV[1], 0, ARGV[2])
local first = redis.call('ZRANK', KEYS[1], ARGV[1]) + 1
local last = redis.call('ZRANK', KEYS[1], ARGV[2]) - 1

local matches = {}
local rank = first
-- Normally one pass; more only when leftover sentinels sit in the range.
while #matches < limit and rank <= last do
    local stop = math.min(last, rank + (limit - #matches) - 1)
    for _, member in ipairs(redis.call('ZRANGE', KEYS[1], rank, stop)) do
        if not string.find(member, '{', 1, true) then
            matches[#matches + 1] = member
        end
    end
    rank = stop + 1
end
redis.call('ZREM', KEYS[1], ARGV[1], ARGV[2])
return matches
