--- Sets a flag to 1 or 0 and tells whether it changed.
---@key flag string the flag's key
---@param on boolean the new state (redis-rs sends a bool as 1 or 0)
---@return boolean
local new = ARGV[1] == '1' and '1' or '0'
local old = redis.call('GETSET', KEYS[1], new)
return old ~= new
