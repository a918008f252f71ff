function a:b.c() end
