local shard = ARGV[1]
return redis.call('LLEN', KEYS[1]...shard)
