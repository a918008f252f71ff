-- Includes a file with a syntax error on its line 3.
--- @include "lib/broken"
return helper()
