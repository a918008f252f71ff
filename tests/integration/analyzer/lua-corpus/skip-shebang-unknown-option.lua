#!lua x=1
return 1
