return 1_000
