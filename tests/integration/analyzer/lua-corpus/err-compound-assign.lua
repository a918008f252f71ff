local x = 1
x += 1
