local a = [[
first newline skipped]]
local b = [==[level 2 with ]] and ]=] and [[ inside]==]
local c = [=[
]=]
local d = [[]]
local e = [[a [[ b ]]
local f = [[line one
line two]]
return {a, b, c, d, e, f}
