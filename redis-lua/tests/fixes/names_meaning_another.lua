-- Names a respelling would give another meaning: none is fixed unasked.
-- `rcall` is the usual alias of redis.call (this fragment's includer
-- declares it); `pcall` would turn its errors into a quiet false.
local value = rcall('GET', KEYS[1])
-- `call` is no `pcall` either, for the same reason.
local count = call('INCR', KEYS[1])
-- One letter for another may be another word.
local popped = redis.call('GEY', KEYS[1])
return {value, count, popped, tostrong(1)}
