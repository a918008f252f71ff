return 1()
