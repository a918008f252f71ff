-- Deletes the keys it is given, any number of them, and replies how many
-- existed. A test fixture of tests/integration/variadic_keys.rs: every key
-- is a declared KEY, so a cluster routes the call and refuses keys in more
-- than one slot.
if #KEYS == 0 then
    return 0
end
return redis.call('DEL', unpack(KEYS))
