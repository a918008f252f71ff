--- Replies whatever the server replies to PING, unconverted.
---@return any
return redis.call('PING')
