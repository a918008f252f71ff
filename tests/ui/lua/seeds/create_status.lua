-- seed 000, create_status: `keys[1]` where KEYS[1] was meant.
local login = redis.call('hget', keys[1], 'login')
if not login then
    return false
end
local id = redis.call('incr', KEYS[2])
local key = string.format('status:%s', id)
redis.call('hmset', key, 'login', login, 'id', id, unpack(ARGV))
redis.call('hincrby', KEYS[1], 'posts', 1)
return id
