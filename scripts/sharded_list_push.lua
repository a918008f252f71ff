--- Pushes one chunk of items onto one end of a sharded list, opening new
--- shards beyond that end as the end shard fills up.
---
--- Replies the number of items pushed: all of them. Replies an error, pushing
--- nothing, for an unknown end, a bad shard size, or an item equal to the
--- dummy (pops skip the dummy, so it would be lost).
---
--- The shard size is an argument: CONFIG GET list-max-ziplist-entries is
--- refused in scripts on Redis 7 and no longer exists for lists, and a size
--- below 2 is an error rather than a reply of 0 a caller could loop on. No
--- slot is kept free in each shard for the blocking pop's dummy: Redis 7
--- limits list nodes by bytes, not entries, and a dummy stays only for the
--- blocking pop's round trip. This script also fills as
--- many shards as the chunk needs, rather than one per call.
---
--- Redis Cluster: the shard keys are computed here, not declared in KEYS; see
--- the module docs of redis_script::recipes::sharded_list.
---@key first string <list>:first, the id of the leftmost shard (absent means 0)
---@key last string <list>:last, the id of the rightmost shard (absent means 0)
---@param prefix string the shard key prefix "<list>:"; shard <id> is the list "<list>:<id>"
---@param end string the end: "left" (LPUSH, new shards get smaller ids) or "right" (RPUSH, new shards get larger ids)
---@param shard_size integer the shard size: the most items one shard takes (an integer >= 1)
---@param dummy string the reserved dummy value, which is refused as an item
---@param ... string the items, pushed one after the other as LPUSH/RPUSH would
---@return integer
-- The shard keys are built from the prefix "{<name>}:" in ARGV, whose hash
-- tag is the pointer keys' (KEYS): every shard is in their slot, on their node.
-- redis-lua: allow(undeclared_key)
local prefix, side, dummy = ARGV[1], ARGV[2], ARGV[4]
local size = tonumber(ARGV[3])
local push, end_key, step
if side == 'left' then
    push, end_key, step = 'LPUSH', KEYS[1], -1
elseif side == 'right' then
    push, end_key, step = 'RPUSH', KEYS[2], 1
else
    return redis.error_reply('ERR the end must be "left" or "right", got "' .. tostring(side) .. '"')
end
if not size or size < 1 or size ~= math.floor(size) then
    return redis.error_reply('ERR the shard size must be an integer >= 1, got "' .. tostring(ARGV[3]) .. '"')
end
local first_item, last_item = 5, #ARGV
for i = first_item, last_item do
    if ARGV[i] == dummy then
        return redis.error_reply('DUMMY the reserved dummy value cannot be pushed')
    end
end
-- Lua 5.1's unpack fails beyond a few thousand values: push in slices.
local max_unpack = 1000

local shard = tonumber(redis.call('GET', end_key) or '0')
local next_item = first_item
while next_item <= last_item do
    local key = prefix .. shard
    local room = size - redis.call('LLEN', key)
    if room > 0 then
        local upto = math.min(last_item, next_item + room - 1, next_item + max_unpack - 1)
        redis.call(push, key, unpack(ARGV, next_item, upto))
        next_item = upto + 1
    else
        -- A shard beyond the end holds no items, at most a guard's dummy in
        -- passing (see sharded_list_guard.lua), so this ends in a shard with room.
        shard = redis.call('INCRBY', end_key, step)
    end
end
return last_item - first_item + 1
