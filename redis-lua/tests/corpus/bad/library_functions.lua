#!lua name=counters
redis.register_function('counter_get', function(keys, args)
  return redis.call('GETT', keys[1])
end)
redis.register_function{
  function_name = 'counter_peek',
  callback = function(keys, args) return redis.call('SET', keys[1], args[1]) end,
  flags = {'no-writes'},
}
