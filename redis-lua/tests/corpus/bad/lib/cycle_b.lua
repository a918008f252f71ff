--- @include "cycle_a"
local b = 2
