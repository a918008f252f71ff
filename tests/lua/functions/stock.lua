#!lua name=stock
-- Stock counts per item, as Redis Functions: the test library of
-- tests/integration/functions.rs. Each function takes the hash of counts as
-- its key and an item as its first argument.

-- A count as a number: 0 for a missing value.
local function count_of(value)
    return tonumber(value) or 0
end

-- Adds args[2] (a positive whole number) of the item; replies the new count.
local function add(keys, args)
    local amount = tonumber(args[2])
    if not amount or amount < 1 or amount % 1 ~= 0 then
        return redis.error_reply('ERR amount must be a positive whole number')
    end
    return redis.call('HINCRBY', keys[1], args[1], amount)
end

redis.register_function('stock_add', add)

-- Takes one of the item if any is left; replies the count left, or nil.
redis.register_function('stock_take', function(keys, args)
    if count_of(redis.call('HGET', keys[1], args[1])) < 1 then
        return nil
    end
    return redis.call('HINCRBY', keys[1], args[1], -1)
end)

redis.register_function{
    function_name = 'stock_count',
    callback = function(keys, args)
        return count_of(redis.call('HGET', keys[1], args[1]))
    end,
    flags = {'no-writes'},
    description = 'the count of an item, 0 when it has none',
}
