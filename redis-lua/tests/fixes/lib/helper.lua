local function helper(key)
  return redis.call('HGTE', key, 'field')
end
