-- Stores a JSON document into a hash, one field per leaf, named by its dotted
-- path ("user.tags.2"); the hash is replaced. JSON null leaves are skipped.
--
-- KEYS[1]  the hash
-- ARGV[1]  the JSON document (an object or an array)
-- Reply    the number of fields written; an error reply BADJSON when ARGV[1]
--          does not parse or nests deeper than 32 levels.
local ok, doc = pcall(cjson.decode, ARGV[1])
if not ok then
    return redis.error_reply('BADJSON ' .. tostring(doc))
end

local fields = {}

-- Recursive: walks nested objects and arrays depth first.
local function walk(value, path, depth)
    if depth > 32 then
        -- Raising the table redis.error_reply makes keeps the error's code.
        error(redis.error_reply('BADJSON nested deeper than 32 levels'))
    end
    if value == cjson.null then
        return
    end
    if type(value) == 'table' then
        for k, v in pairs(value) do
            local name = tostring(k)
            if path ~= '' then
                name = string.format('%s.%s', path, name)
            end
            walk(v, name, depth + 1)
        end
        return
    end
    if type(value) == 'boolean' then
        value = value and 'true' or 'false'
    end
    fields[#fields + 1] = path
    fields[#fields + 1] = tostring(value)
end

walk(doc, '', 0)
redis.call('DEL', KEYS[1])
if #fields > 0 then
    redis.call('HSET', KEYS[1], unpack(fields))
end
return #fields / 2
