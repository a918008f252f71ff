-- Falls through (replies nil) when the key is missing.
local value = redis.call('GET', KEYS[1])
if value then
    return value
end
