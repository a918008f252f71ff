--- Whether a lock is held, in words; the header says an integer.
---@key lock string the lock key
---@return integer
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 'locked'
end
return 'free'
