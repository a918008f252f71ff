-- The lengths of three lists, as an array of three integers.
local first = redis.call('LLEN', KEYS[1])
local second = redis.call('LLEN', KEYS[2])
local third = redis.call('LLEN', KEYS[3])
return {first, second, third}
