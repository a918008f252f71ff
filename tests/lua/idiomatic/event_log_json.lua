-- Appends an event to a JSON log kept in a string key, oldest first, keeping
-- at most a given number of events. The log round-trips through cjson:
-- decoded into tables, modified, encoded again.
--
-- KEYS[1]  the string key holding the log (missing: an empty log)
-- ARGV[1]  the event kind
-- ARGV[2]  the event's amount (a number)
-- ARGV[3]  how many events to keep
-- Reply    the stored JSON text, [["kind", amount], ...]: cjson has no stable
--          key order for objects, so each event is stored as an array.
local events = {}
local raw = redis.call('GET', KEYS[1])
if raw then
    for _, row in ipairs(cjson.decode(raw)) do
        events[#events + 1] = { kind = row[1], amount = row[2] }
    end
end

table.insert(events, { kind = ARGV[1], amount = tonumber(ARGV[2]) })

local keep = tonumber(ARGV[3])
while #events > keep do
    table.remove(events, 1)
end

local rows = {}
for i, event in ipairs(events) do
    rows[i] = { event.kind, event.amount }
end
local encoded = cjson.encode(rows)
redis.call('SET', KEYS[1], encoded)
return encoded
