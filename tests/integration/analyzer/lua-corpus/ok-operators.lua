local a, b, c = 1, 2, 3
local x = a + b * c - a / b % c ^ 2 ^ 3
local y = -a ^ 2 .. b .. c
local z = not a == b and a ~= b or a < b and a <= b or a > b or a >= b
local w = #"abc" + #{1, 2} - - -a
local s = "x" .. 1 .. 2.5 .. "y"
return x, y, z, w, s
