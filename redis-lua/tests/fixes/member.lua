local count = redis.cal('INCR', KEYS[1])
return string.fromat('%d', count)
