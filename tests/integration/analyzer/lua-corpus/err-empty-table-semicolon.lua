local w = {;}
