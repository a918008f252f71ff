local x = f
(g)()
