--[[
  Adds a job to the wait list and wakes up the workers.
    Input:
      KEYS[1] wait key
      KEYS[2] marker key
      ARGV[1] job id
]]
local rcall = redis.call
--- @include "includes/addBaseMarker"
rcall("LPUSH", KEYS[1], ARGV[1])
addBaseMarker(KEYS[2], 0)
return ARGV[1]
