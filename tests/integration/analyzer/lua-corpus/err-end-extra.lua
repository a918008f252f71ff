local x = 1
end
