-- Includes a file that does not exist.
--- @include "lib/nowhere"
return 1
