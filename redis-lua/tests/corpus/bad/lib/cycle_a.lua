--- @include "cycle_b"
local a = 1
