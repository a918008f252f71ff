local x = "abc
return x
