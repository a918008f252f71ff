--- The guard of a blocking pop: run in the same pipeline just before BLPOP or
--- BRPOP on the shard the client read as the end shard. If that shard is no
--- longer the end, or is empty while other shards may hold items, it pushes the
--- dummy into it, so the blocking pop returns at once (with the dummy, which
--- the client discards) and the client retries on the right shard, instead of
--- waiting on a shard that no push will fill.
---
--- Replies 1 when it pushed the dummy, 0 when the client may block on the
--- shard. Replies an error for an unknown end or a shard id that is not an
--- integer.
---
--- The dummy is one value for every client, passed in by the caller: a
--- per-process random dummy, left in a shard by one process, would be
--- returned as an item to another.
---@key first string <list>:first, the id of the leftmost shard (absent means 0)
---@key last string <list>:last, the id of the rightmost shard (absent means 0)
---@param prefix string the shard key prefix "<list>:"; shard <id> is the list "<list>:<id>"
---@param end string the end the client pops from: "left" (BLPOP) or "right" (BRPOP)
---@param shard string the shard id the client read from that end's key, an integer
---@param dummy string the reserved dummy value
---@return boolean
-- The shard keys are built from the prefix "{<name>}:" in ARGV, whose hash
-- tag is the pointer keys' (KEYS): every shard is in their slot, on their node.
-- redis-lua: allow(undeclared_key)
local prefix, side, shard, dummy = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local push, end_key, other_key
if side == 'left' then
    push, end_key, other_key = 'LPUSH', KEYS[1], KEYS[2]
elseif side == 'right' then
    push, end_key, other_key = 'RPUSH', KEYS[2], KEYS[1]
else
    return redis.error_reply('ERR the end must be "left" or "right", got "' .. tostring(side) .. '"')
end
local id = tonumber(shard)
if not id then
    return redis.error_reply('ERR the shard id must be an integer, got "' .. tostring(shard) .. '"')
end

-- The same key the client blocks on: the id exactly as the client read it.
local key = prefix .. shard
local current = tonumber(redis.call('GET', end_key) or '0')
local stale = current ~= id
-- An empty end shard with other shards beside it: a BLPOP/BRPOP emptied it
-- without moving the end (only the pop script does that), and the items wait
-- in the next shard.
local emptied = redis.call('LLEN', key) == 0
    and current ~= tonumber(redis.call('GET', other_key) or '0')
if stale or emptied then
    redis.call(push, key, dummy)
    return 1
end
return 0
