local login = redis.call('HGET', keys[1], 'login')
return login
