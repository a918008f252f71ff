local a, b = "x", "y"
local c = a..b
local d = a .. b .. 1 .. .5
local e = {...}
return c, d, e, ...
