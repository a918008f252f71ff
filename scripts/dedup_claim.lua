--- Claims a message id: marks it as seen, with an expiry, unless it is marked
--- already. Of all callers with one id, exactly one is first until the mark
--- expires.
---
--- Replies 1 when this caller set the mark (it is the first, and should
--- process the message), 0 when the id was marked already (a duplicate). A
--- time that is not a positive integer is an error, and marks nothing.
---
--- One SET NX PX writes the mark and its expiry together. (GET, SET, then
--- EXPIRE would not do: scripts do not roll back, so an EXPIRE that failed on
--- a bad time would leave a mark without expiry, and that id would never be
--- new again.)
---@key key string the id's mark, e.g. `dedup:<message id>`
---@param ttl_ms integer how long the mark lasts, in milliseconds (a positive integer)
---@return boolean
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
    return 1
end
return 0
