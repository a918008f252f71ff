--- Declares its key but not its reply.
---@key counter string
redis.call('INCR', KEYS[1])
