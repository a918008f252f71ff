--- Loads red envelopes (lottery prizes): gives each amount the next envelope
--- id and queues the records `{"id":<id>,"amount":<amount>}` for grabbing,
--- first amount first.
---
--- Replies the id of the first new envelope; the others follow it in order.
--- With no amounts, replies the id the next envelope would get, writing
--- nothing. Errors, writing nothing, on an amount out of range or when ids
--- would reach 10^14 (cjson writes larger numbers in exponent form).
---@key pending string the list of envelopes not yet granted
---@key next_id string the counter of envelope ids
---@param ... integer the amounts, whole numbers from 0 to 10^14 - 1
---@return integer
local LIMIT = 1e14
for i, value in ipairs(ARGV) do
    local amount = tonumber(value)
    if not (amount and amount >= 0 and amount < LIMIT and amount == math.floor(amount)) then
        return redis.error_reply('ERR envelope amount #' .. i .. ' is not a whole number from 0 to 10^14 - 1')
    end
end
local first = tonumber(redis.call('GET', KEYS[2]) or '0') + 1
local last = first + #ARGV - 1
if last >= LIMIT then
    return redis.error_reply('ERR envelope ids would reach 10^14')
end
if #ARGV == 0 then
    return first
end
redis.call('SET', KEYS[2], string.format('%d', last))

-- In batches: `unpack` of a very long table would overflow Lua's C stack.
-- LPUSH puts each batch at the head, and grabs pop the tail: first in, first out.
local BATCH = 1000
for start = 1, #ARGV, BATCH do
    local records = {}
    for i = start, math.min(#ARGV, start + BATCH - 1) do
        records[#records + 1] = cjson.encode({id = first + i - 1, amount = tonumber(ARGV[i])})
    end
    redis.call('LPUSH', KEYS[1], unpack(records))
end
return first
