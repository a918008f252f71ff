--- Puts an item from the seller's inventory on the market at a price, in one
--- step: the item is never in both places, nor in neither.
---
--- Replies true when the item moved to the market, false when the seller's
--- inventory does not hold it (nothing changes). Errors, changing nothing, on
--- a price out of range.
---@key inventory string the seller's inventory, a set of item ids (`{market}:inventory:<seller>`)
---@key market string the market, a sorted set of `<item>.<seller>` scored by price (`{market}:listings`)
---@param item string the item id
---@param member string the market member, `<item>.<seller>`
---@param price integer the price, a whole number from 0 to 2^53 - 1
---@return boolean
local price = tonumber(ARGV[3])
if not (price and price >= 0 and price < 2 ^ 53 and price == math.floor(price)) then
    return redis.error_reply('ERR the price must be a whole number from 0 to 2^53 - 1')
end
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then
    return false
end
redis.call('ZADD', KEYS[2], string.format('%d', price), ARGV[2])
return true
