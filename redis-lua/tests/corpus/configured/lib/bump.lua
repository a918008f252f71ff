-- A fragment: `job_key` is the including script's local.
local function bump()
  return redis.call('INCR', job_key)
end
