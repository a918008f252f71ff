-- seed 000, sharded_push (CONFIG and UNPACK fixed in sharded_push_unpack.lua
-- and sharded_push_config.lua respectively; this one keeps only `UNPACK`).
local max = tonumber(ARGV[2])
if #ARGV < 3 or max < 2 then return 0 end
local skey = ARGV[1] == 'lpush' and KEYS[2] or KEYS[3]
local shard = redis.call('get', skey) or '0'
while 1 do
    local current = tonumber(redis.call('llen', KEYS[1]..shard))
    local topush = math.min(#ARGV - 2, max - current - 1)
    if topush > 0 then
        redis.call(ARGV[1], KEYS[1]..shard, UNPACK(ARGV, 3, topush+2))
        return topush
    end
    shard = redis.call(ARGV[1] == 'lpush' and 'decr' or 'incr', skey)
end
