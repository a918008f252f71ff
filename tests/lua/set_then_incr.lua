-- Sets KEYS[1] to 1, then increments KEYS[2] and replies its new value: a
-- script that has written when its second command fails, as it does for a
-- user whose ACL allows SET but not INCR.
redis.call('SET', KEYS[1], '1')
return redis.call('INCR', KEYS[2])
