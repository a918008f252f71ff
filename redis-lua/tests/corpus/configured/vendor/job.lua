-- A vendored script (excluded by the config) whose helper is outside vendor/.
local job_key = KEYS[1]
--- @include "../lib/bump"
return bump()
