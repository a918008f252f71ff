local x = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
local y = {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}
if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then if x then y = 1 end end end end end end end end end end end end end end end end end end end end end end end end end end end end end end 
return x
