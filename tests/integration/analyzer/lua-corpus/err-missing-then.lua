if x y() end
