--- Takes one of an item if any is left; replies the count left, or nil
--- when there was none.
---@key stock string the hash of counts per item
---@param item string the item
---@return integer?
--- @include "includes/counters"
if current(KEYS[1], ARGV[1]) < 1 then
    return nil
end
return bump(KEYS[1], ARGV[1], -1)
