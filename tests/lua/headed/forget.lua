--- Deletes a key and replies nothing.
---@key key string
---@return nil
redis.call('DEL', KEYS[1])
