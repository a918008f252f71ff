-- Sets KEYS[1] to ARGV[1] and replies the TCP port of the server that ran
-- the script, so a cluster test can tell which node a call reached.
redis.call('SET', KEYS[1], ARGV[1])
local info = redis.call('INFO', 'server')
return tonumber(string.match(info, 'tcp_port:(%d+)'))
