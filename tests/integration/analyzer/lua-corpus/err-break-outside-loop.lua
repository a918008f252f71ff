if x then break end
