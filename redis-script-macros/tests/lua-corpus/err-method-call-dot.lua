o:m.n()
