-- Declares a helper as a global function.
function ttl_of(key)
    return redis.call('PTTL', key)
end
return ttl_of(KEYS[1])
