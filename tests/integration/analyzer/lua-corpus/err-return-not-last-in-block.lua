if x then
  return 1
  x = 2
end
