if x then
  y()
