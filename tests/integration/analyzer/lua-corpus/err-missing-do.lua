while x y() end
