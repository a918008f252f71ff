local key = KEYS[1]
local ttl = tonumber(ARGV[1])
local current = redis.call('GET', key)
if not current then
  redis.call('SET', key, ARGV[2], 'PX', ttl)
  return redis.status_reply('OK')
end
local ok, err = pcall(redis.call, 'INCR', key)
if not ok then
  return redis.error_reply(tostring(err))
end
local decoded = cjson.decode('{"a": [1, 2, 3]}')
redis.log(redis.LOG_NOTICE, "decoded", #decoded.a)
return {current, cjson.encode(decoded), string.format("%d", 3)}
