return "abc":upper()
