-- Adds items to a bag stored as one MessagePack array, keeping each item
-- once, in first-seen order.
--
-- KEYS[1]  the bag (a MessagePack-encoded array; missing: empty)
-- ARGV     the items to add (any number)
-- Reply    {items added now, every item in the bag}
local bag, seen = {}, {}
local packed = redis.call('GET', KEYS[1])
if packed then
    bag = cmsgpack.unpack(packed)
    for _, item in ipairs(bag) do
        seen[item] = true
    end
end

local added = 0
for i = 1, #ARGV do
    local item = ARGV[i]
    if not seen[item] then
        seen[item] = true
        bag[#bag + 1] = item
        added = added + 1
    end
end

redis.call('SET', KEYS[1], cmsgpack.pack(bag))
return {added, bag}
