local function f() return 1, 2 end
local t = {
  1, 2; 3,
  x = 1, ["y"] = 2, [f()] = 3,
  {nested = {deeper = {}}},
  f(),
  (f()),
  function() end,
}
local u = {f(), f()}
local v = {...}
return {t, u, v, {}, {1,}, {1;}, {x = 1;}}
