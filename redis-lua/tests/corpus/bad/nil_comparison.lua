-- GET's nil reply arrives as false: the default is never taken.
local value = redis.call('GET', KEYS[1])
if value == nil then
    return ARGV[1]
end
return value
