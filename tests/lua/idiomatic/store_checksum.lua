-- Stores a document with its SHA1, writing only when the content changed,
-- and logs each change to the server log.
--
-- KEYS[1]  the document (a string)
-- KEYS[2]  the hash of document -> SHA1 hex
-- ARGV[1]  the new content
-- Reply    {SHA1 hex of the content, 1 if it was written else 0}
local sha = redis.sha1hex(ARGV[1])
if redis.call('HGET', KEYS[2], KEYS[1]) == sha then
    return {sha, 0}
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], KEYS[1], sha)
redis.log(redis.LOG_NOTICE, 'document ' .. KEYS[1] .. ' changed: ' .. sha)
return {sha, 1}
