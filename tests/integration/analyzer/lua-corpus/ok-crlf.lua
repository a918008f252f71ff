local a = 1
if a then
  a = [[x
y]]
end
return a
