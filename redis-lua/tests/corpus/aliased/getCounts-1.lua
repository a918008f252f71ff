--[[
  Counts the jobs of a list and a set.
    Input:
      KEYS[1] the queue's key prefix
]]
local rcall = redis.call
local waiting = rcall("LLEN", KEYS[1] .. "wait")
local delayed = rcall("ZCARD", KEYS[1] .. "delayed")
return {waiting, delayed}
