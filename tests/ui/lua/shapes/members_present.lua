-- Which of two values are members of a set: an array of two integers.
return redis.call('SMISMEMBER', KEYS[1], ARGV[1], ARGV[2])
