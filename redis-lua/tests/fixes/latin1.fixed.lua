-- café au lait
local mark = 'ÿþ'
return redis.call('SET', KEYS[1], mark)
