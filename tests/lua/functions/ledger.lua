#!lua name=ledger
-- A library made with shared Lua, as a script may be: the helpers of the
-- include tests (tests/lua/includes/includes/) come in by the include
-- lines below the name line. Used by tests/integration/functions.rs.
--- @include "../includes/includes/checks"
--- @include "../includes/includes/counters"

-- Moves args[2] (a positive whole number) of the item args[1] from the
-- hash keys[1] to the hash keys[2]; replies the count left in keys[1], or
-- nil when it has too few.
redis.register_function('ledger_move', function(keys, args)
    local amount, refused = positive(args[2], 'amount')
    if not amount then
        return refused
    end
    if current(keys[1], args[1]) < amount then
        return nil
    end
    bump(keys[2], args[1], amount)
    return bump(keys[1], args[1], -amount)
end)
