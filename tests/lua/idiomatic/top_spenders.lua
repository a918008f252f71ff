-- Ranks customers by total spend from a hash of "customer:order" -> amount,
-- and stores the ranking as a comma-separated report.
--
-- KEYS[1]  the hash of "customer:order id" -> amount in cents
-- KEYS[2]  the report (a string), "customer=total,..." best first
-- ARGV[1]  how many customers to rank
-- Reply    {customers with orders, the ranked "customer=total" entries}
local totals = {}
local order_lines = redis.call('HGETALL', KEYS[1])
for i = 1, #order_lines, 2 do
    local customer = order_lines[i]:match('^([^:]+):')
    if customer then
        totals[customer] = (totals[customer] or 0) + tonumber(order_lines[i + 1])
    end
end

-- Nested tables: one record per customer.
local records = {}
for customer, total in pairs(totals) do
    table.insert(records, { name = customer, total = total })
end
-- Biggest spender first; ties by name, so the order is stable.
table.sort(records, function(a, b)
    if a.total ~= b.total then
        return a.total > b.total
    end
    return a.name < b.name
end)

local ranked = {}
local limit = math.min(tonumber(ARGV[1]), table.getn(records))
for i = 1, limit do
    ranked[i] = records[i].name .. '=' .. records[i].total
end
redis.call('SET', KEYS[2], table.concat(ranked, ','))
return {#records, ranked}
