-- Adds an amount to several counters, skipping the ones that cannot be
-- incremented instead of aborting the script. A counter holding a float is
-- incremented as a float.
--
-- KEYS     the counters (any number)
-- ARGV[1]  the amount (an integer)
-- Reply    {counters incremented, sum of their new values (truncated), "key:
--           CODE" for each skipped counter, comma separated ("" when none)}
local done, sum, skipped = 0, 0, {}

for _, key in ipairs(KEYS) do
    -- redis.pcall hands the error back as a table {err = "..."}.
    local r = redis.pcall('INCRBY', key, ARGV[1])
    if type(r) == 'table' and r.err and r.err:find('not an integer', 1, true) then
        -- Lua's pcall catches what redis.call raises: a message string on
        -- Redis 7.0, but a table with `err` elsewhere (and in xpcall handlers).
        local ok, value = pcall(redis.call, 'INCRBYFLOAT', key, ARGV[1])
        if ok then
            r = tonumber(value)
        else
            r = { err = type(value) == 'table' and value.err or tostring(value) }
        end
    end
    if type(r) == 'table' and r.err then
        skipped[#skipped + 1] = key .. ': ' .. (r.err:match('^(%u+)') or '?')
    else
        done = done + 1
        sum = sum + r
    end
end

return {done, sum, table.concat(skipped, ', ')}
