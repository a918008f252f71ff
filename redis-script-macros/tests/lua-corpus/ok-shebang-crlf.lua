#!lua
return 1
