--[[
  Adds the marker that wakes up the workers. A fragment: `rcall` is the
  including script's alias of redis.call.
]]
local function addBaseMarker(markerKey, timestamp)
  rcall("ZADDD", markerKey, timestamp, "0")
end
