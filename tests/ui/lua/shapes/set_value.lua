-- Stores a value: SET without NX, XX or GET always replies the status OK.
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
