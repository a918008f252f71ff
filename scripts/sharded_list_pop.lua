--- Pops one item from one end of a sharded list, skipping dummies and moving
--- the end past shards it finds empty.
---
--- Replies the item, or nil when the list is empty. Dummies met on the way are
--- removed and never replied. Replies an error for an unknown end.
---
--- The other end is read from the OTHER id (reading the popping end's twice
--- would take an empty end shard for an empty list), and LLEN's number is
--- compared with the number 0 (never with the string '0', which it never
--- equals). There is one dummy for everyone, and it is skipped, never
--- returned as an item.
---@key first string <list>:first, the id of the leftmost shard (absent means 0)
---@key last string <list>:last, the id of the rightmost shard (absent means 0)
---@param prefix string the shard key prefix "<list>:"; shard <id> is the list "<list>:<id>"
---@param end string the end: "left" (LPOP) or "right" (RPOP)
---@param dummy string the reserved dummy value, which blocking pops push as a wake-up
---@return string?
-- The shard keys are built from the prefix "{<name>}:" in ARGV, whose hash
-- tag is the pointer keys' (KEYS): every shard is in their slot, on their node.
-- redis-lua: allow(undeclared_key)
local prefix, side, dummy = ARGV[1], ARGV[2], ARGV[3]
local pop, end_key, other_key, step
if side == 'left' then
    pop, end_key, other_key, step = 'LPOP', KEYS[1], KEYS[2], 1
elseif side == 'right' then
    pop, end_key, other_key, step = 'RPOP', KEYS[2], KEYS[1], -1
else
    return redis.error_reply('ERR the end must be "left" or "right", got "' .. tostring(side) .. '"')
end

local shard = tonumber(redis.call('GET', end_key) or '0')
local other = tonumber(redis.call('GET', other_key) or '0')
-- Ends: each pass removes a dummy or moves one shard toward the other end.
while true do
    local key = prefix .. shard
    local item = redis.call(pop, key)
    if item and item ~= dummy then
        -- Keep the end on a shard with items, so blocking pops wait on the
        -- shard that the next push fills.
        if shard ~= other and redis.call('LLEN', key) == 0 then
            redis.call('INCRBY', end_key, step)
        end
        return item
    elseif not item then
        if shard == other then
            return false
        end
        shard = redis.call('INCRBY', end_key, step)
    end
end
