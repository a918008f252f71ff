-- Lua source with a Latin-1 byte where UTF-8 is expected.
return 'café'
