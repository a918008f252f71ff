-- Marks a job done: a status reply, or an integer when it was done already.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
redis.call('SET', KEYS[1], 'done')
return {ok = 'DONE'}
