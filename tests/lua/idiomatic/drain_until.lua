-- Pops messages from the head of a queue up to and including a marker, moves
-- them to an archive list, and replies with them newest first; messages after
-- the marker stay queued. Without the marker, the whole queue is drained.
--
-- KEYS[1]  the queue (a list)
-- KEYS[2]  the archive (a list), which receives the messages oldest first
-- ARGV[1]  the marker message
-- Reply    {1 if the marker was found else 0, the drained messages newest
--           first, without the marker}
local drained, found = {}, 0
repeat
    local message = redis.call('LPOP', KEYS[1])
    if message == ARGV[1] then
        found = 1
    elseif message then
        drained[#drained + 1] = message
    end
    -- `until` sees the body's locals.
until not message or message == ARGV[1]

if #drained > 0 then
    redis.call('RPUSH', KEYS[2], unpack(drained))
end

local newest_first = {}
for i = #drained, 1, -1 do
    newest_first[#newest_first + 1] = drained[i]
end
return {found, newest_first}
