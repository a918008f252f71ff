-- Deletes every key matching a pattern, walking the keyspace with SCAN
-- (for a standalone server: the keys are not declared in KEYS).
--
-- KEYS     none
-- ARGV[1]  the MATCH pattern ("session:*")
-- ARGV[2]  the SCAN COUNT hint
-- Reply    the deleted keys, sorted
local deleted = {}
local cursor = '0'
while true do
    local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', ARGV[2])
    cursor = page[1]
    for _, key in ipairs(page[2]) do
        -- SCAN can return a key twice: count each deletion once.
        if redis.call('DEL', key) == 1 then
            table.insert(deleted, key)
        end
    end
    if cursor == '0' then
        break
    end
end
table.sort(deleted)
return deleted
