return 1e+
