for a b
