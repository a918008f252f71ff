#!lua name=inventory
-- Seats of events as Redis Functions: the library of examples/functions.rs.
-- Each function takes the hash of free seats per event as its key.

-- Adds args[2] free seats to the event args[1]; replies how many it has.
redis.register_function('inventory_add', function(keys, args)
    local seats = tonumber(args[2])
    if not seats or seats < 1 or seats % 1 ~= 0 then
        return redis.error_reply('ERR seats must be a positive whole number')
    end
    return redis.call('HINCRBY', keys[1], args[1], seats)
end)

-- Books one seat of the event args[1] if one is free; replies the seats
-- left, or nil when it is sold out.
redis.register_function('inventory_book', function(keys, args)
    local free = tonumber(redis.call('HGET', keys[1], args[1])) or 0
    if free < 1 then
        return nil
    end
    return redis.call('HINCRBY', keys[1], args[1], -1)
end)

-- The free seats of the event args[1]; a replica can answer it.
redis.register_function{
    function_name = 'inventory_free',
    callback = function(keys, args)
        return tonumber(redis.call('HGET', keys[1], args[1])) or 0
    end,
    flags = {'no-writes'},
    description = 'the free seats of an event',
}
