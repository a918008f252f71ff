--- @include "lib/cycle_a"
return 1
