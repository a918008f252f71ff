local n = tonumber(ARGV[1]) or 0
if n > 10 then
  n = 10
elseif n > 5 then
  n = 5
elseif n > 0 then
else
  n = 0
end
while n > 0 do
  n = n - 1
  if n == 3 then break end
end
repeat
  local done = n <= 0
  n = n - 1
until done
for i = 1, 10 do end
for i = 10, 1, -2 do if i < 3 then break end end
for k, v in pairs({a = 1}) do n = n + v end
for i, v in ipairs({1, 2}) do n = n + i end
for _ in next, {} do end
return n
