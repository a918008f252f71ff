#!lua
redis.register_function('f', function(keys, args) return 1 end)
