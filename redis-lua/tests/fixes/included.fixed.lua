--- @include "lib/helper"
return helper(KEYS[1])
