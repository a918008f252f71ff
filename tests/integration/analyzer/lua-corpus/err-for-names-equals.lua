for a, b = 1, 2 do end
