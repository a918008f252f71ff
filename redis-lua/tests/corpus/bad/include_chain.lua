--- @include "lib/helpers"
return bump(KEYS[1])
