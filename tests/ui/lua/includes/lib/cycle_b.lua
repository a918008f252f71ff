local b = 2
--- @include "cycle_a"
