return 7 // 2
