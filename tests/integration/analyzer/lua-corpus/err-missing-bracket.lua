local x = t[1
