local function f() return 1, 2 end
return (f()), (...), ((f()))
