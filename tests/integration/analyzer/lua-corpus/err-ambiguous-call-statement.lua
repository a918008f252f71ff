local a = b
(f or g)(1)
