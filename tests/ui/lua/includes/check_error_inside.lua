-- Includes a helper that reads KEYS[2].
--- @include "lib/reads_keys"
return both()
