a.b
