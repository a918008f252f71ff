--- Stores in a set the union of other sets and of further members, and
--- replies its size; a test fixture of tests/integration/variadic_keys.rs.
---@key destination string the set to store the union in
---@key ... string the sets to merge
---@param ttl_secs integer the union's time to live, 0 for none
---@param ... string further members
---@return integer how many members the union has
if #KEYS > 1 then
    redis.call('SUNIONSTORE', KEYS[1], unpack(KEYS, 2))
else
    redis.call('DEL', KEYS[1])
end
if #ARGV > 1 then
    redis.call('SADD', KEYS[1], unpack(ARGV, 2))
end
if tonumber(ARGV[1]) > 0 then
    redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return redis.call('SCARD', KEYS[1])
