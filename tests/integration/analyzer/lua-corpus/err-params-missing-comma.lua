function f(a b) end
