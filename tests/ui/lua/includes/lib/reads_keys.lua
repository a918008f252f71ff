-- Reads a second key: beyond `keys = 1` of the binding below.
local function both()
    return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}
end
