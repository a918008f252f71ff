local café = 1
