-- The job's hash is named by ARGV, not passed in KEYS.
local state = redis.call('HGET', 'job:' .. ARGV[1], 'state')
return state
