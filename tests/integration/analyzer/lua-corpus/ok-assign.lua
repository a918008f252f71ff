local t = {a = {}}
local function f() return t end
a, b, c = 1, 2
t.a.b, t["c"], t[1] = 1, 2, 3
f().x = 1
f()["y"] = 2;
(t).z = 3
a, b = b, a
return a, b, c, t
