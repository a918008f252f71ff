local value = redis.call('GTE', KEYS[1])
if value != nil then
  return value +
end
