-- Shared by the include tests: a counter per item in a hash.
--- @include "numbers"

-- Adds `by` to the item's count in `hash` and replies the new count.
local function bump(hash, item, by)
    return redis.call('HINCRBY', hash, item, by)
end

-- The item's count in `hash`, 0 when it has none.
local function current(hash, item)
    return count_of(redis.call('HGET', hash, item))
end
