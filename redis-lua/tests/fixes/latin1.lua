-- café au lait
local mark = 'ÿþ'
return redis.call('SETT', KEYS[1], mark)
