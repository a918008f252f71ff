local value = redis.call('GTE', KEYS[1])
if value == nil then
  return 0
end
return value
