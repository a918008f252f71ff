-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns a status reply whose text is ARGV[2], made the way ARGV[1] names:
--
--   'ok_table'      {ok = ARGV[2]}
--   'status_reply'  redis.status_reply(ARGV[2])
if ARGV[1] == 'ok_table' then
    return {ok = ARGV[2]}
elseif ARGV[1] == 'status_reply' then
    return redis.status_reply(ARGV[2])
end
return redis.error_reply('FIXTURE no such variant: ' .. ARGV[1])
