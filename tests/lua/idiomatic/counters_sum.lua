-- Sums integer counters spread over several keys and names the largest one.
-- A missing counter counts as 0.
--
-- KEYS  the counters (any number of keys)
-- ARGV  none
-- Reply {total, peak, name of the first counter holding the peak}
local total, peak = 0, -math.huge
for _, key in ipairs(KEYS) do
    local value = tonumber(redis.call('GET', key) or '0')
    total = total + value
    peak = math.max(peak, value)
end

local largest = KEYS[1]
for i = 1, #KEYS do
    if tonumber(redis.call('GET', KEYS[i]) or 0) == peak then
        largest = KEYS[i]
        break
    end
end

return {total, peak, largest}
