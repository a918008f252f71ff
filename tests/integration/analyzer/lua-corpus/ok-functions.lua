local obj = {a = {b = {}}}
function obj.a.b.c(x, y) return x + y end
function obj.a.b:m(x) return self, x end
function obj:n(...) return ... end
function g(...) local t = {...} return #t, ... end
local function h() return function(a, b, ...) return a, b, ... end end
local counter = (function()
  local n = 0
  return function() n = n + 1 return n end
end)()
return obj.a.b.c(1, 2), counter(), g(1, 2), h()(1, 2, 3)
