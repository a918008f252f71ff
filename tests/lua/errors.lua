-- Test fixture for tests/integration/reply_mapping.rs.
-- Fails in the way ARGV[1] names, so the client receives an error reply:
--
--   'err_table'    returns {err = 'TABLECODE from an err table'}
--   'error_reply'  returns redis.error_reply('MYCODE msg')
--   'error'        raises error('boom'), a Lua run-time error
if ARGV[1] == 'err_table' then
    return {err = 'TABLECODE from an err table'}
elseif ARGV[1] == 'error_reply' then
    return redis.error_reply('MYCODE msg')
elseif ARGV[1] == 'error' then
    error('boom')
end
return 'FIXTURE no such variant: ' .. ARGV[1]
