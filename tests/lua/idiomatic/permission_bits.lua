-- Grants and revokes permission bits of a user, kept as an integer bitmask in
-- a hash field, and reports what changed.
--
-- KEYS[1]  the hash of user -> bitmask
-- ARGV[1]  the user
-- ARGV[2]  the bits to grant, as hex ("0x05" or "05")
-- ARGV[3]  the bit numbers to revoke (0-based), comma separated ("" for none)
-- Reply    {new mask, new mask as 8 hex digits, bits that changed, highest
--           set bit (-1 when none)}
local old = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or 0)
local grant = tonumber((ARGV[2]:gsub('^0x', '')), 16)

local revoke = 0
for n in string.gmatch(ARGV[3], '%d+') do
    revoke = bit.bor(revoke, bit.lshift(1, tonumber(n)))
end

local new = bit.bor(bit.band(old, bit.bnot(revoke)), grant)
redis.call('HSET', KEYS[1], ARGV[1], new)

local highest = -1
for b = 31, 0, -1 do
    if bit.band(new, bit.lshift(1, b)) ~= 0 then
        highest = b
        break
    end
end
return {new, bit.tohex(new, 8), bit.bxor(old, new), highest}
