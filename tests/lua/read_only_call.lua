#!lua flags=no-writes
-- Runs the command named by ARGV[1] on KEYS[1], with the rest of ARGV as its
-- arguments, and replies with its reply. The command is chosen at run time,
-- so the compile-time check cannot see a write: the server must refuse one.
return redis.call(ARGV[1], KEYS[1], unpack(ARGV, 2))
