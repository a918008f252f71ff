#!lua flags=allow-cross-slot-keys
-- Replies the values of KEYS[1] and of the key ARGV[1] names, which the
-- script reaches without declaring it ('' for a missing key). On a cluster,
-- the shebang flag lets that undeclared key be in another slot of the same
-- node; the declared KEYS must still share one slot. The undeclared key is
-- the point of the script:
-- redis-lua: allow(undeclared_key)
return {redis.call('GET', KEYS[1]) or '', redis.call('GET', ARGV[1]) or ''}
