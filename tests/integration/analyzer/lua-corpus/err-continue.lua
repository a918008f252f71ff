for i = 1, 2 do
  continue
end
