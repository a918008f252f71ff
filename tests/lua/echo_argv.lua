-- Replies with its KEYS followed by its ARGV, as one flat array:
-- shows exactly what a call sent, for the argument-encoding tests.
local out = {}
for _, key in ipairs(KEYS) do out[#out + 1] = key end
for _, arg in ipairs(ARGV) do out[#out + 1] = arg end
return out
