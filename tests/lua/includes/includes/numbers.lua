-- Shared by the include tests: reading counts.

-- A count as a number: 0 for a missing value.
local function count_of(value)
    return tonumber(value) or 0
end
