#!lua name=lookups
-- Reads the KEYS global, which functions do not have.

redis.register_function('counter_global', function(keys, args)
    return redis.call('GET', KEYS[1])
end)
