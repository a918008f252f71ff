#!lua flags=bogus
return 1
