function f(a) return {...} end
