local x = function() end()
