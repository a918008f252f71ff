#!lua flags=no-writes
-- Whether a set holds every given member (true for no members at all).
--
-- KEYS[1]  the set
-- ARGV     the members (any number)
-- Reply    true or false
for i = 1, #ARGV do
    if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 then
        return false
    end
end
return true
