#!lua name=stock
-- Version 2 of tests/lua/functions/stock.lua, as another build of the
-- application would load it: `stock_take` is gone, `stock_count` replies
-- the count doubled, so a test can tell which version ran.

redis.register_function{
    function_name = 'stock_count',
    callback = function(keys, args)
        return 2 * (tonumber(redis.call('HGET', keys[1], args[1])) or 0)
    end,
    flags = {'no-writes'},
}
