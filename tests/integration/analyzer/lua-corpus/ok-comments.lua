-- a line comment
--[[ a long
comment ]]
--[==[ a level-2 comment with ]] and ]=] inside ]==]
--[= not a long bracket: a line comment ]]
--[ also a line comment
local x = 1 -- trailing comment
--[[ an opening [[ inside is plain text in Redis' Lua ]]
return x --[[ comment ]] + 1 -- at the end, no newline