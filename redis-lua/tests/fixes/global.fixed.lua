local count = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if count > limit then
  return limit
end
return count
