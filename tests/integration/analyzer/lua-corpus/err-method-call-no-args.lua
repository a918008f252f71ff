o:m
