-- Uses Lua 5.2's table.unpack; Redis runs Lua 5.1.
return redis.call('MGET', table.unpack(KEYS))
