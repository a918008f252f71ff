-- seed 000, release_lock: `True` is Python; Lua's is `true`.
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1]) or True
end
