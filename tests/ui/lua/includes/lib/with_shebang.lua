#!lua flags=no-writes
local x = 1
