local x = [=x
