// `allow(...)` on the attribute takes only what the tables may get wrong:
// allowing `nil_reply` would let a `String` take a GET's nil, and
// `out_of_range` a KEYS index the call never fills.
use redis_script::redis_script;

#[redis_script(
    file = "tests/ui/lua/checks/get_can_be_nil.lua",
    keys = 1,
    allow(nil_reply, out_of_range)
)]
fn get(key: &str) -> String;

fn main() {}
