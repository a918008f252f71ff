function f(a, ...) end
return function() return ... end
