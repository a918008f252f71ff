local a = 2
return not not a, - - a, -#{} , #"x" ^ 2, not a == nil
