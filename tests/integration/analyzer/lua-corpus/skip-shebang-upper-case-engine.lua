#!LUA
return 1
