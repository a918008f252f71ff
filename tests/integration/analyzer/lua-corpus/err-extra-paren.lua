local function f() end
f() f())
