function f(..., a) end
