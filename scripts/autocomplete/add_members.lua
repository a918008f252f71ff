--- Adds names to an autocomplete set, all or none.
---
--- Every name gets score 0, so the set orders names alphabetically, which the
--- prefix search relies on. Replies how many names were new. Errors, adding
--- nothing, if any name is empty or has a character outside a-z (a `{` would
--- be taken for a sentinel, other characters would sort outside the ranges
--- the prefix search computes).
---@key members string the sorted set of names, `members:<guild>`
---@param ... string the names: each one or more letters a-z
---@return integer
for i, name in ipairs(ARGV) do
    if not string.find(name, '^[a-z]+$') then
        return redis.error_reply('ERR autocomplete name #' .. i .. ' is not one or more letters a-z')
    end
end
-- In batches: `unpack` of a very long table would overflow Lua's C stack.
local BATCH = 1000
local added = 0
for first = 1, #ARGV, BATCH do
    local scored = {}
    for i = first, math.min(#ARGV, first + BATCH - 1) do
        scored[#scored + 1] = 0
        scored[#scored + 1] = ARGV[i]
    end
    added = added + redis.call('ZADD', KEYS[1], unpack(scored))
end
return added
