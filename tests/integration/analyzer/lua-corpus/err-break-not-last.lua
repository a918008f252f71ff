while x do
  break
  x = 1
end
