--[[
  Pauses a queue, unless it is already paused.
    Input:
      KEYS[1] meta key
]]
local rcall = redis.call
if rcall("HEXISTS", KEYS[1], "paused") == 1 then
  return 0
  rcall("HDEL", KEYS[1], "resumed")
end
rcall("HSET", KEYS[1], "paused", 1)
return 1
