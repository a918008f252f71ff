count = redis.call('INCR', KEYS[1])
string.trim = function(s) return s end
return count
