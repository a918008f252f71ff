local t = {
  1,
  2
