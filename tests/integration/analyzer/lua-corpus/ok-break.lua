while true do break end
while true do break; end
repeat if true then break end until false
for i = 1, 2 do do break end end
return 1
