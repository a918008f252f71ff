--- Grabs a red envelope for a user: one envelope per user, each envelope to
--- one user, and a record of the grant queued for later persistence.
---
--- Replies {'granted', record} with the envelope's JSON record plus
--- `"userId"`, {'repeat', record} with the record this user was granted
--- before (nothing changes), or {'sold_out'} when no envelope is left (the
--- user is not recorded and can try again after more are loaded).
--- Errors, changing nothing, when the next envelope is not a JSON object.
--- (The record itself is stored, not 1, so a repeat can be answered; the
--- user id travels in ARGV, not as a key.)
---@key pending string the list of envelopes not yet granted (JSON records)
---@key consumed string the list of granted records, newest first, for persistence
---@key grants string the hash of grants: user id -> granted record
---@param user string the user id
---@return string[]
local previous = redis.call('HGET', KEYS[3], ARGV[1])
if previous then
    return {'repeat', previous}
end

-- Read before popping: a script is not rolled back when it fails later.
local envelope = redis.call('LINDEX', KEYS[1], -1)
if not envelope then
    return {'sold_out'}
end
local decoded, record = pcall(cjson.decode, envelope)
if not decoded or type(record) ~= 'table' then
    return redis.error_reply('ERR the next red envelope is not a JSON object: ' .. envelope)
end
record['userId'] = ARGV[1]
local granted = cjson.encode(record)

redis.call('RPOP', KEYS[1])
redis.call('HSET', KEYS[3], ARGV[1], granted)
redis.call('LPUSH', KEYS[2], granted)
return {'granted', granted}
