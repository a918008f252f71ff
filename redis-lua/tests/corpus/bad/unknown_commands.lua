local rcall = redis.call
return rcall('HSETT', KEYS[1], 'field', ARGV[1])
