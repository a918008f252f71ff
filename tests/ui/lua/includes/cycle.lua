-- Starts an include cycle: cycle_a includes cycle_b, which includes cycle_a.
--- @include "lib/cycle_a"
return 1
