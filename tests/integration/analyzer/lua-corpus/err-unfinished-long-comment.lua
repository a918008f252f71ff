--[[ never closed
return 1
