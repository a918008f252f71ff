--- @include "lib/nowhere"
return 1
