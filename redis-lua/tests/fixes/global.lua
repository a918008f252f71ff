local count = tonumbr(ARGV[1])
local limit = tonumbr(ARGV[2])
if cuont > limit then
  return limit
end
return cuont
