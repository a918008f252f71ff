-- Whether a lock is held, in words.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 'locked'
end
return 'free'
