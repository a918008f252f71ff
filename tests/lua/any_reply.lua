-- Runs the command ARGV names and replies whatever it replies: a reply of
-- any shape, for the bindings of tests that only decode replies (the
-- reply-shape check cannot tell what it returns, so accepts any type).
return redis.call(unpack(ARGV))
