-- An include path without quotes.
--- @include lib/helpers
return 1
