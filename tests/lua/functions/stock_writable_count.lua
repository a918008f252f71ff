#!lua name=stock
-- tests/lua/functions/stock.lua as an older build of the application
-- loaded it, before `stock_count` was registered `no-writes`: the server
-- then refuses the FCALL_RO of the current build's binding.

redis.register_function('stock_count', function(keys, args)
    return tonumber(redis.call('HGET', keys[1], args[1])) or 0
end)
