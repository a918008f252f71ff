local function a.b() end
