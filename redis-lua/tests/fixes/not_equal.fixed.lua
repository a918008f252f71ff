-- `!=` is C's not-equal; a string or a comment keeps it.
local flag = ARGV[1]
if flag ~= 'a != b' then -- flag != x
  return 1
end
return flag ~= ARGV[2]
