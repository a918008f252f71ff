-- Test fixture for tests/integration/json.rs: decodes the order in ARGV[1]
-- (JSON), adds the item ARGV[2] and its line count, stores it in KEYS[1] and
-- replies it as JSON. ARGV[2] = 'broken' replies text that is not JSON;
-- 'nothing' replies nil; 'wrong' replies JSON of another shape.
local order = cjson.decode(ARGV[1])
if ARGV[2] == 'broken' then
    return '{"id": '
elseif ARGV[2] == 'nothing' then
    return nil
elseif ARGV[2] == 'wrong' then
    return cjson.encode({id = 'not a number'})
end
table.insert(order.items, ARGV[2])
order.lines = #order.items
local text = cjson.encode(order)
redis.call('SET', KEYS[1], text)
return text
