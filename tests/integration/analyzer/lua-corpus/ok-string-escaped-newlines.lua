return "a\
b\
c\d"
