local t = {}
t["end"] = 1
t["function"] = 2
t.endx = 3
t._end = 4
local and_, or_, nil_ = 1, 2, 3
return t["end"] + and_ + or_ + nil_
