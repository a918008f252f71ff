-- Valkey's other name for the redis table: not in Redis 7.0.
return server.call('GET', KEYS[1])
