-- Stores two fields: HMSET always replies the status OK.
return redis.call('HMSET', KEYS[1], 'name', ARGV[1], 'age', ARGV[2])
