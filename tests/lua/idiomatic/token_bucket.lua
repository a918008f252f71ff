-- Token bucket rate limiter written as a small Lua "class": a local table
-- with methods (`function Bucket:take`) and a metatable, all local.
--
-- KEYS[1]  the bucket (a hash: tokens, stamp in microseconds)
-- ARGV[1]  the capacity
-- ARGV[2]  tokens refilled per second
-- ARGV[3]  tokens this request takes
-- Reply    {1 if granted else 0, tokens left (floored)}

--[[
  The state lives in a hash so that other tools can read it:
    tokens  fractional tokens left
    stamp   server time of the last update, in microseconds
]]
local Bucket = {}
Bucket.__index = Bucket

function Bucket.load(key, capacity, rate)
    local state = redis.call('HMGET', key, 'tokens', 'stamp')
    local now = redis.call('TIME')
    local self = setmetatable({
        key = key,
        capacity = capacity,
        rate = rate,
        now = tonumber(now[1]) * 1000000 + tonumber(now[2]),
    }, Bucket)
    self.tokens = tonumber(state[1]) or capacity
    self.stamp = tonumber(state[2]) or self.now
    return self
end

function Bucket:refill()
    local elapsed = math.max(0, self.now - self.stamp) / 1000000
    self.tokens = math.min(self.capacity, self.tokens + elapsed * self.rate)
    self.stamp = self.now
end

function Bucket:take(n)
    self:refill()
    if self.tokens < n then
        return false
    end
    self.tokens = self.tokens - n
    return true
end

function Bucket:save()
    redis.call('HSET', self.key, 'tokens', string.format('%.6f', self.tokens), 'stamp', self.stamp)
    -- Full again after capacity / rate seconds: no need to keep it longer.
    local ttl = math.ceil(self.capacity / self.rate) + 1
    redis.call('EXPIRE', self.key, ttl)
end

local bucket = Bucket.load(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
local granted = bucket:take(tonumber(ARGV[3]))
bucket:save()
return {granted and 1 or 0, math.floor(bucket.tokens)}
