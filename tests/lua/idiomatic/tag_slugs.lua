-- Normalizes free-form tags into slugs and files them in a set; each tag is
-- also indexed under the upper-cased first three characters of its slug.
--
-- KEYS[1]  the set of slugs
-- KEYS[2]  the hash of 3-character prefix -> slugs under it, space separated
-- ARGV[1]  the tags, comma separated ("  Rust Lang , redis!,  LUA ")
-- Reply    the new slugs in input order, each as "slug/PREFIX/changes", where
--          changes counts the characters the normalization replaced
local added = {}
for raw in ARGV[1]:gmatch('[^,]+') do
    local tag = raw:gsub('^%s+', ''):gsub('%s+$', '')
    if tag:len() > 0 then
        local slug, changes = tag:lower():gsub('[^%w]+', '-')
        slug = slug:gsub('%-+$', '')
        local prefix = slug:sub(1, 3):upper()
        if redis.call('SADD', KEYS[1], slug) == 1 then
            local under = redis.call('HGET', KEYS[2], prefix)
            redis.call('HSET', KEYS[2], prefix, under and (under .. ' ' .. slug) or slug)
            added[#added + 1] = ('%s/%s/%d'):format(slug, prefix, changes)
        end
    end
end
return added
