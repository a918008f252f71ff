local x = 'a' 'b'
