local function f()
  return 1, 2, 3;
end
local function g()
  do return f() end
end
if g() then return (f()) end
return
