-- Appends every value to a list and (re)sets its expiry.
--
-- KEYS[1]     the list
-- ARGV[1]     time to live in seconds
-- ARGV[2..]   the values to append, any number of them
--
-- Replies the list's new length.
local length = redis.call('RPUSH', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return length
