local t = {1, 2, 3}
local s = 0
for i = #t, t[1], -(1) do s = s + t[i] end
return s
