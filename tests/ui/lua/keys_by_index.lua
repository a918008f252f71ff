-- Reads KEYS[1] and KEYS[2] by literal index and counts KEYS: with a
-- variadic key list, the binding's fixed keys are only a lower bound.
return {KEYS[1], KEYS[2], #KEYS}
