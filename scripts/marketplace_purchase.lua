--- Buys an item on the market: checks the price against the buyer's funds and,
--- if they suffice, moves the funds to the seller and the item to the buyer,
--- all at once, without locks or WATCH.
---
--- Prices and funds are whole numbers from 0 to 2^53 - 1; a missing `funds`
--- field counts as 0. Replies true when the purchase happened, false when the
--- item is not on the market or the buyer's funds are short (nothing changes).
--- Errors, changing nothing, when a price or funds value is not such a number
--- or the seller's funds would exceed the range: every check comes before the
--- first write, since a script is not rolled back when a command fails.
---@key market string the market, a sorted set of `<item>.<seller>` scored by price (`{market}:listings`)
---@key buyer string the buyer's hash (`{market}:users:<buyer>`), with `funds`
---@key seller string the seller's hash (`{market}:users:<seller>`), with `funds`
---@key inventory string the buyer's inventory, a set of item ids (`{market}:inventory:<buyer>`)
---@param member string the market member, `<item>.<seller>`
---@param item string the item id
---@return boolean
local LIMIT = 2 ^ 53

local function amount(value)
    local number = tonumber(value or '0')
    if number and number >= 0 and number < LIMIT and number == math.floor(number) then
        return number
    end
end

local listed = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not listed then
    return false
end
local price = amount(listed)
local funds = amount(redis.call('HGET', KEYS[2], 'funds'))
local seller_funds = amount(redis.call('HGET', KEYS[3], 'funds'))
if not (price and funds and seller_funds) then
    return redis.error_reply('ERR price and funds must be whole numbers from 0 to 2^53 - 1')
end
if funds < price then
    return false
end
if KEYS[2] ~= KEYS[3] and seller_funds + price >= LIMIT then
    return redis.error_reply('ERR the seller\'s funds would exceed 2^53 - 1')
end

local amount_arg = string.format('%d', price)
redis.call('HINCRBY', KEYS[2], 'funds', '-' .. amount_arg)
redis.call('HINCRBY', KEYS[3], 'funds', amount_arg)
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return true
