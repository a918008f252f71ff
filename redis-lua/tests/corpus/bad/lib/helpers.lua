local function bump(key)
  return redis.call('INCRBYY', key, 1)
end
