local x = 3x
