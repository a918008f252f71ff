return 1
local x = 2
