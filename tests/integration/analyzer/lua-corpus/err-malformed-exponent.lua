return 1e
