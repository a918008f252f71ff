-- Keeps a player record in a compact binary layout made with struct.pack:
-- a big-endian u32 id, an i16 score and a length-prefixed name. Adds to the
-- score (saturating at the i16 range) and unpacks the record again.
--
-- KEYS[1]  the record (a binary string; missing: a new record)
-- ARGV[1]  the player id (used for a new record)
-- ARGV[2]  the player name (used for a new record)
-- ARGV[3]  the score delta
-- Reply    {id, score, name, size of the record in bytes}
local LAYOUT = '>I4hBc0'

local id, score, name
local raw = redis.call('GET', KEYS[1])
if raw then
    -- `c0` takes its length from the value before it; struct.unpack also
    -- returns the position after the record, which is ignored here.
    id, score, name = struct.unpack(LAYOUT, raw)
else
    id, score, name = tonumber(ARGV[1]), 0, ARGV[2]
end

score = math.max(-32768, math.min(32767, score + tonumber(ARGV[3])))
local record = struct.pack(LAYOUT, id, score, #name, name)
redis.call('SET', KEYS[1], record)

local id2, score2, name2 = struct.unpack(LAYOUT, record)
return {id2, score2, name2, #record}
