local owner = redis.call('GET', KEYS[1])
if not owner then
  return redis.call('SET', KEYS[1], ARGV[1])
end
if redis.call('HGET', KEYS[2], 'token') then
  return 0
end
return owner ~= false
