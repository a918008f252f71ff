function () end
