-- Reads a profile with the script's replies in RESP3 (redis.setresp(3)),
-- where HGETALL gives a map, SMEMBERS a set and ZSCORE a double, and
-- flattens it into plain strings that read the same on any connection.
--
-- KEYS[1]  the profile (a hash)
-- KEYS[2]  the profile's badges (a set)
-- KEYS[3]  the ranking (a sorted set)
-- ARGV[1]  the member whose rank score is read
-- Reply    {the profile as "field=value" pairs, sorted, space separated; the
--           badges sorted, joined by ","; the score as "%.2f", or "none"}
redis.setresp(3)

local fields = {}
local profile = redis.call('HGETALL', KEYS[1])
for field, value in pairs(profile.map) do
    table.insert(fields, field .. '=' .. value)
end
table.sort(fields)

local badges = {}
for badge in pairs(redis.call('SMEMBERS', KEYS[2]).set) do
    badges[#badges + 1] = badge
end
table.sort(badges)

-- In RESP3 a missing member is a Lua nil (RESP2 gives false).
local score = redis.call('ZSCORE', KEYS[3], ARGV[1])
local shown = 'none'
if score ~= nil then
    shown = string.format('%.2f', score.double)
end

return {table.concat(fields, ' '), table.concat(badges, ','), shown}
