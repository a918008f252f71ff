return "ok \255 but not \256"
