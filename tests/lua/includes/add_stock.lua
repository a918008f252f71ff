--- Adds stock of an item; replies the new count.
---@key stock string the hash of counts per item
---@param item string the item
---@param amount integer how many to add (positive)
---@return integer the item's new count
--- @include "includes/checks"
--- @include "includes/counters"
local amount, refused = positive(ARGV[2], 'amount')
if not amount then
    return refused
end
return bump(KEYS[1], ARGV[1], amount)
