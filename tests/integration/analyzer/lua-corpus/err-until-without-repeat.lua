until x
