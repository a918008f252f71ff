while true do
  local f = function() break end
end
