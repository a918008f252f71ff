do
  local x = 1
