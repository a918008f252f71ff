-- In a table constructor, Lua reads the token after a name ahead, so a call
-- whose '(' starts a new line is not "ambiguous" there.
local f = function() return 1 end
local t = {f
(1)}
return t
