local o = {m = function(self, x) return self end}
local f = function(x) return o end
f"str"
f'str'
f[[str]]
f{1, 2}
o:m(1)
o:m"x"
o:m{}
f(1).m(o, 2):m"y":m{3}
local r = f "a" : m "b"
f
"newline before a string argument is fine"
f
{"and before a table"}
return type(r)
