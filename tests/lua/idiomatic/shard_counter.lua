-- Adds to a counter split over N shard keys ("<base>:<n>"), choosing the
-- shard by a djb2 hash of a member id, and sums the shards back up. The
-- shard keys are computed, not declared in KEYS: for a standalone server.
--
-- KEYS[1]  the counter's base name
-- ARGV[1]  the member id that picks the shard
-- ARGV[2]  the number of shards
-- ARGV[3]  the amount to add
-- Reply    {the shard's index (0-based), its new value, the total over all
--           shards, how many shards are still missing}; an error reply
--           SHARDS when a shard does not hold an integer
assert(redis.REDIS_VERSION_NUM >= 0x070000, 'this script needs Redis 7')

local function djb2(s)
    local h = 5381
    for i = 1, #s do
        h = (h * 33 + s:byte(i)) % 4294967296
    end
    return h
end

local shards = tonumber(ARGV[2])

-- A generator of (index, key) pairs, as a coroutine.
local function shard_keys()
    return coroutine.wrap(function()
        for i = 0, shards - 1 do
            coroutine.yield(i, string.format('%s:%d', KEYS[1], i))
        end
    end)
end

local index = djb2(ARGV[1]) % shards
local value = redis.call('INCRBY', KEYS[1] .. ':' .. index, ARGV[3])

local missing = {}
local ok, total = xpcall(function()
    local sum = 0
    for i, key in shard_keys() do
        local v = redis.call('GET', key)
        if v then
            sum = sum + tonumber(v)
        else
            missing[#missing + 1] = i
        end
    end
    return sum
end, function(err)
    -- The handler sees what redis.call raised: on Redis 7.0 a table {err =
    -- "..."} (where pcall would have handed back just the message).
    local message = type(err) == 'table' and err.err or tostring(err)
    return 'SHARDS cannot sum the shards: ' .. message
end)
if not ok then
    return redis.error_reply(total)
end

local all_present = next(missing) == nil
return {index, value, total, all_present and 0 or #missing}
