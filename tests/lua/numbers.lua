-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns the number written in ARGV[1], such as 42 or -3.7.
--
-- ARGV[1]  the number, as text
-- ARGV[2]  'number': as a Lua number, which Redis truncates to an integer
--          reply (3.7 -> 3, -3.7 -> -3);
--          'double': as a RESP3 double (`{double = n}` after redis.setresp(3)),
--          which keeps the fraction and reaches a RESP2 connection as a bulk string
local n = tonumber(ARGV[1])
if ARGV[2] == 'number' then
    return n
elseif ARGV[2] == 'double' then
    redis.setresp(3)
    return {double = n}
end
return redis.error_reply('FIXTURE no such variant: ' .. ARGV[2])
