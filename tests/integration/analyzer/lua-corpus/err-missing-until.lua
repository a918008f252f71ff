repeat
  x = 1
