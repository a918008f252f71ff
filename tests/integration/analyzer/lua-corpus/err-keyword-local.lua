local end = 1
