-- Shared by the include tests: argument checks.
--- @include "numbers"

-- The positive whole number in `value`, or an error reply naming `what`.
local function positive(value, what)
    local n = count_of(value)
    if n < 1 or n % 1 ~= 0 then
        return nil, redis.error_reply('ERR ' .. what .. ' must be a positive whole number')
    end
    return n
end
