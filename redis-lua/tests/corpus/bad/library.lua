#!lua name=stock
local reserved = redis.call('GET', 'stock:reserved')
redis.register_function('stock_take', function(keys, args)
  return redis.call('DECRBY', keys[1], args[1])
end)
