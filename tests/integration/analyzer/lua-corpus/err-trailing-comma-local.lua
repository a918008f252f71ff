local a, = 1
