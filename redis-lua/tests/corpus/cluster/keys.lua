-- The order's lines hang off the order's own key (built on KEYS[1]); the
-- customer's record is named by ARGV.
local lines = redis.call('LRANGE', KEYS[1] .. ':lines', 0, -1)
redis.call('HINCRBY', 'customer:' .. ARGV[1], 'orders', 1)
return lines
