-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns Lua nil, false or true.
--
-- ARGV[1]  'nil', 'false' or 'true': the value returned
-- ARGV[2]  the protocol the script replies in, given to redis.setresp: 2 (the
--          default) or 3. After redis.setresp(3), false and true reach a RESP3
--          connection as RESP3 booleans, and false reaches a RESP2 connection
--          as integer 0 rather than as a null.
redis.setresp(tonumber(ARGV[2]))
if ARGV[1] == 'nil' then
    return nil
elseif ARGV[1] == 'false' then
    return false
elseif ARGV[1] == 'true' then
    return true
end
return redis.error_reply('FIXTURE no such variant: ' .. ARGV[1])
