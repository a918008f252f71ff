//! Everything a binding may carry: docs, restricted visibility, a generic
//! parameter, a `#[cfg]` and a `#[variadic]` ARGV tail.

use redis_script::redis::ToRedisArgs;
use redis_script::{Arity, redis_script};

/// Appends `values` to `list` and sets its expiry.
#[redis_script(file = "tests/ui/lua/push_all.lua", keys = 1)]
#[cfg(all())]
pub(crate) fn push_all<V: ToRedisArgs>(list: &str, ttl_secs: u64, #[variadic] values: &[V]) -> i64;

// rustc evaluates `#[cfg]` before it expands `#[redis_script]`, wherever the
// `#[cfg]` is written; configured out, a binding leaves nothing behind, so
// neither this function nor its `SCRIPT` module clash with `push_all` above.
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
#[cfg(any())]
fn push_all(lock: &str, token: &str) -> bool;

fn main() {
    let script = &push_all::SCRIPT;
    assert_eq!(script.name(), "push_all");
    assert_eq!(script.file(), "tests/ui/lua/push_all.lua");
    assert_eq!(script.source(), include_str!("../lua/push_all.lua"));
    assert_eq!(script.sha1(), "d6f74793918a95ae80e3ec5e4d4fc3718c30ae21");
    assert_eq!(script.key_count(), 1);
    assert_eq!(script.key_names(), ["list"]);
    assert_eq!(script.arg_names(), ["ttl_secs"]);
    assert_eq!(script.arg_arity(), Arity::AtLeast(1));
    assert_eq!(script.reply_type(), "i64");

    // Building a call needs no server; the tail takes any number of values.
    let call = push_all("queue", 60, &["a", "b", "c"]);
    assert!(std::ptr::eq(call.script(), script));
    let _ = push_all::<u32>("queue", 60, &[]);
}
