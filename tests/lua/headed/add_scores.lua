--- Adds members to a sorted set, each with the same score; a test fixture
--- of tests/integration/headers.rs.
---@key board string the sorted set
---@param score number the score every member gets
---@param ... string the members
---@return integer how many members were new
local added = 0
for i = 1, #ARGV - 1 do
    added = added + redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i + 1])
end
return added
