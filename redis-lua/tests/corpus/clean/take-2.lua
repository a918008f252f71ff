local rcall = redis.call
local moved = rcall('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
return moved
