return string.fromat('%s:%s', KEYS[1], ARGV[1])
