local	a=1

	 return a