-- Test fixture for tests/integration/reply_mapping.rs.
-- Returns ARGV[1] byte for byte, as a bulk string (Lua strings are byte
-- strings, so non-UTF-8 bytes come back unchanged).
return ARGV[1]
