-- GET replies nil as false, so the branch never runs.
local v = redis.call('GET', KEYS[1])
if v == nil then
    return ARGV[1]
end
return v
