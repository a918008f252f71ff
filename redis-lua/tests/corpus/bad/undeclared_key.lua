-- The job's key is read from ARGV: on a cluster it may live on another node.
local job = redis.call('HGETALL', 'job:' .. ARGV[1])
redis.call('LPUSH', KEYS[1], ARGV[1])
return job
