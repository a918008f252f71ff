do return end
