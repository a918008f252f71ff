-- Replies true, or falls through to nil.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return true
end
