-- Writes into the read-only string library.
string.trim = function(s) return (s:gsub('^%s+', '')) end
return string.trim(ARGV[1])
