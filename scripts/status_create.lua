--- Posts a status message for a user, in one round trip: reads the user's
--- login, takes the next status id, writes the status hash and counts the post.
---
--- Writes `<prefix><id>`, a hash with the extra fields and then `message`,
--- `posted` (the server's clock, Unix seconds with 6 decimals), `id`, `uid`
--- and `login`, so the extra fields can never overwrite those; increments
--- the user's `posts`.
--- Replies the new status id, or nil when the user has no login (then nothing
--- is written and no id is taken).
---
--- The status hash is not in KEYS (its name depends on the id taken here). On
--- a Redis Cluster the script may still write it because every key of the
--- system carries the hash tag `{status}`: all are in the slot of KEYS[2].
--- Extra fields cannot overwrite `id` and `login`.
---@key user string the user's hash, `{status}:user:<uid>` (must have a `login` field)
---@key status_ids string the status id counter, `<prefix>id:` (`{status}:id:`); status hashes are `<prefix><id>` (`{status}:<id>`)
---@param uid string the user id (stored as the status's `uid`)
---@param message string the message
---@param ... string extra fields of the status as field/value pairs
---@return integer?
if (#ARGV - 2) % 2 ~= 0 then
    return redis.error_reply('ERR extra status fields must come in field/value pairs')
end
-- Status hashes share the counter's prefix, and so its hash tag and slot.
local prefix = string.match(KEYS[2], '^(.*)id:$')
if not prefix then
    return redis.error_reply('ERR the status id counter key must end in "id:"')
end

local login = redis.call('HGET', KEYS[1], 'login')
if not login then
    return false
end

local id = redis.call('INCR', KEYS[2])
local now = redis.call('TIME')
local fields = {}
for i = 3, #ARGV do
    fields[#fields + 1] = ARGV[i]
end
local fixed = {
    'message', ARGV[2],
    'posted', string.format('%d.%06d', now[1], now[2]),
    'id', id,
    'uid', ARGV[1],
    'login', login,
}
for _, value in ipairs(fixed) do
    fields[#fields + 1] = value
end
redis.call('HSET', prefix .. id, unpack(fields))
redis.call('HINCRBY', KEYS[1], 'posts', 1)
return id
