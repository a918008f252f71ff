local s1 = "double 'single' inside"
local s2 = 'single "double" inside'
local s3 = "\a\b\f\n\r\t\v\\\"\'"
local s4 = "\65\066\0677\255\0"
local s5 = "line one\
line two"
local s6 = "unknown escapes are kept: \z \x41 \q \u{48} \%"
local s7 = ''
local s8 = "é ü 中文"
return s1 .. s2 .. s3 .. s4 .. s5 .. s6 .. s7 .. s8
