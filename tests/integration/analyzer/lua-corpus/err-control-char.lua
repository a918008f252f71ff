return 
