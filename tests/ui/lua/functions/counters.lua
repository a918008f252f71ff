#!lua name=counters
-- Counters, for the function UI tests.

redis.register_function('counter_incr', function(keys, args)
    return redis.call('INCRBY', keys[1], args[1])
end)

redis.register_function('counter_pair', function(keys, args)
    return {redis.call('GET', keys[1]), redis.call('GET', keys[2])}
end)

redis.register_function{
    function_name = 'counter_peek',
    callback = function(keys, args)
        redis.call('SET', keys[1] .. ':peeked', 1)
        return redis.call('GET', keys[1])
    end,
    flags = {'no-writes'},
}
