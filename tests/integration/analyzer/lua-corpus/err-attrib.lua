local x <const> = 1
