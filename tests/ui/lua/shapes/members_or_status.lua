-- The members of a set, or a status when it has none.
if redis.call('SCARD', KEYS[1]) == 0 then
    return redis.status_reply('EMPTY')
end
return redis.call('SMEMBERS', KEYS[1])
