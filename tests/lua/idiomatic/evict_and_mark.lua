#!lua flags=allow-oom
-- Frees memory when the server is out of memory: deletes the given cache
-- entries and records the cleanup in a counter. `allow-oom` lets the script
-- run, and write, while Redis refuses other scripts with OOM.
--
-- KEYS[1]  the counter of cleanups
-- KEYS[2..] the cache entries to delete (any number)
-- ARGV     none
-- Reply    {entries deleted, cleanups so far}
local deleted = 0
for i = 2, #KEYS do
    deleted = deleted + redis.call('DEL', KEYS[i])
end
local cleanups = redis.call('INCR', KEYS[1])
return {deleted, cleanups}
