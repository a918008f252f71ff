#!lua name=warmup
-- Reads a key while the library loads, which FUNCTION LOAD refuses.
local start = redis.call('GET', 'config:start')
redis.register_function('next_id', function(keys, args)
    return redis.call('INCR', keys[1])
end)
