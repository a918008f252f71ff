-- Appends items to a list and trims it to a maximum length, dropping the
-- oldest items; items arrive as the ARGV tail after a fixed argument.
--
-- KEYS[1]  the list
-- ARGV[1]  the maximum length
-- ARGV[2..] the items (at least one)
-- Reply    {items pushed, list length after trimming, items dropped, the
--           last two items pushed joined by "+"}
-- The main chunk is a vararg function, but EVAL passes it nothing.
assert(select('#', ...) == 0, 'EVAL passes no values to the chunk')
local max_len = tonumber(ARGV[1])
local pushed = select('#', unpack(ARGV, 2))
local length = redis.call('RPUSH', KEYS[1], unpack(ARGV, 2))
local dropped = 0
if length > max_len then
    dropped = length - max_len
    redis.call('LTRIM', KEYS[1], -max_len, -1)
end
-- The last items, walked by index from the tail of ARGV.
local last = {}
for i = #ARGV, 2, -1 do
    if #last == 2 then
        break
    end
    table.insert(last, 1, ARGV[i])
end
return {pushed, length - dropped, dropped, table.concat(last, '+')}
