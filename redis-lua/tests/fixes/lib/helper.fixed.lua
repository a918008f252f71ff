local function helper(key)
  return redis.call('HGET', key, 'field')
end
