# comment
return 1
