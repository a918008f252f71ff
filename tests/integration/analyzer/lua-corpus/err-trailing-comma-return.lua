return 1,
