local a
local b, c
local d, e = 1
local f, g = 1, 2, 3
local function fact(n)
  if n <= 1 then return 1 end
  return n * fact(n - 1)
end
local h = function(...) return select('#', ...) end
do local a = 2; a = a + 1 end
return fact(5), h(1, 2, 3), a, b, c, d, e, f, g
