-- Records a sensor reading: appends it to a capped stream, counts distinct
-- sensors in a HyperLogLog and places the sensor on a geo index. Command
-- names are written in any case, as Redis accepts them.
--
-- KEYS[1]  the readings (a stream)
-- KEYS[2]  the sensors seen (a HyperLogLog)
-- KEYS[3]  the sensor locations (a geo set)
-- ARGV[1]  the sensor id
-- ARGV[2]  the sensor's longitude
-- ARGV[3]  the sensor's latitude
-- ARGV[4]  the reading
-- ARGV[5]  the approximate maximum stream length
-- Reply    {stream length, distinct sensors, the stream's encoding, the
--           sensor's distance in whole meters to the sensor of the oldest
--           reading, or -1}
-- An alias works like redis.call itself.
local call = redis.call

redis.call('xadd', KEYS[1], 'MAXLEN', '~', ARGV[5], '*', 'sensor', ARGV[1], 'value', ARGV[4])
redis.call('PfAdd', KEYS[2], ARGV[1])
call('GEOADD', KEYS[3], ARGV[2], ARGV[3], ARGV[1])

-- The oldest reading still in the stream names the reference sensor.
local first = call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
local distance = -1
if first then
    local fields = first[2]
    for i = 1, #fields, 2 do
        if fields[i] == 'sensor' then
            local d = call('GEODIST', KEYS[3], fields[i + 1], ARGV[1], 'm')
            distance = d and math.floor(tonumber(d)) or -1
        end
    end
end

return {
    call('XLEN', KEYS[1]),
    call('PFCOUNT', KEYS[2]),
    call('OBJECT', 'ENCODING', KEYS[1]),
    distance,
}
