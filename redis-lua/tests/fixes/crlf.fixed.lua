local value = redis.call('GET', KEYS[1])
if not value then
  return 0
end
return value
