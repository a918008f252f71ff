// `#[doc(hidden)]` and `#[deprecated]` on a binding reach its `SCRIPT` module
// too: with `deny(deprecated)`, only the `allow`ed uses below compile.
#![deny(deprecated)]

use redis_script::redis_script;

#[doc(hidden)]
#[deprecated(note = "use the new lock")]
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn old_release(lock: &str, token: &str) -> bool;

#[allow(deprecated)]
fn main() {
    assert_eq!(old_release::SCRIPT.name(), "old_release");
    let _call = old_release("lock", "token");
}
