t.end = 1
