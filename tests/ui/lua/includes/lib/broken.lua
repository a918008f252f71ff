-- A helper with a missing `then`.
local function helper()
    if true
        return 1
    end
end
