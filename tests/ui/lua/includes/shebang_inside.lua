--- @include "lib/with_shebang"
return 1
