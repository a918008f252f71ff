-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns the Lua table named by ARGV[1]:
--
--   'list'        {1, 2, 3}
--   'hole'        {1, nil, 3}: Redis stops at the first nil and sends [1]
--   'nested'      {{1, 2}, {3}, {}}
--   'with_false'  {'a', false, 'c'}
--   'pair'        {'name', 7}
--   'flat_map'    {'a', 1, 'b', 2}
--   'pairs'       {{'a', 1}, {'b', 2}}
--   'signed'      {7, -1}
--   'map'         {map = {a = 1, b = 2}}: a RESP3 map, so give ARGV[2] = 3;
--                 a RESP2 connection receives it as a flat array
--
-- ARGV[2]  the protocol the script replies in, given to redis.setresp: 2 (the
--          default) or 3, which turns false elements into RESP3 booleans on a
--          RESP3 connection and into integer 0 on a RESP2 connection.
redis.setresp(tonumber(ARGV[2]))
local tables = {
    list = {1, 2, 3},
    hole = {1, nil, 3},
    nested = {{1, 2}, {3}, {}},
    with_false = {'a', false, 'c'},
    pair = {'name', 7},
    flat_map = {'a', 1, 'b', 2},
    pairs = {{'a', 1}, {'b', 2}},
    signed = {7, -1},
    map = {map = {a = 1, b = 2}},
}
local chosen = tables[ARGV[1]]
if chosen == nil then
    return redis.error_reply('FIXTURE no such variant: ' .. ARGV[1])
end
return chosen
