#!python
return 1
