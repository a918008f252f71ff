--[[
  Moves a job to the delayed set.
    Input:
      KEYS[1] delayed key
      KEYS[2] marker key
      ARGV[1] timestamp
      ARGV[2] job id
]]
local rcall = redis.call
--- @include "includes/addBaseMarker"
rcall("ZADD", KEYS[1], ARGV[1], ARGV[2])
addBaseMarker(KEYS[99], ARGV[1])
return 0
