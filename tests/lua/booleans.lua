-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns Lua nil, false or true.
--
-- ARGV[1]  'nil', 'false' or 'true': the value returned
-- ARGV[2]  the protocol the script replies in, given to redis.setresp: 2 (the
--          default) or 3. After redis.setresp(3), false and true reach a RESP3
--          connection as RESP3 booleans, and false reaches a RESP2 connection
--          as integer 0 rather than as a null.
--
-- The value comes through a local function: the compile-time nil check reads
-- only the main chunk's own `return`s, so bindings declaring `i64` or `bool`
-- still compile, and the tests can exercise the conversion at run time.
redis.setresp(tonumber(ARGV[2]))
local function variant(name)
    if name == 'nil' then
        return nil
    elseif name == 'false' then
        return false
    elseif name == 'true' then
        return true
    end
    return redis.error_reply('FIXTURE no such variant: ' .. name)
end
return variant(ARGV[1])
