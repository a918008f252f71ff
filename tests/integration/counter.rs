//! A counter script shared by the restart, pool and replica tests: each
//! successful call is one INCR that the final value must account for.

use redis::ConnectionLike;
use redis_script::redis_script;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
pub fn incr_counter(counter: &str) -> i64;

/// The counter's value as the server has it, 0 when it was never written.
pub fn counter_value(con: &mut dyn ConnectionLike, counter: &str) -> i64 {
    let value: Option<i64> = redis::cmd("GET").arg(counter).query(con).unwrap();
    value.unwrap_or(0)
}

/// Checks what the replies of `calls` successful calls say together: each
/// call got its own value, so none of them is a repeat of a lost write, and
/// they are exactly `1..=calls`.
pub fn assert_one_increment_per_success(mut replies: Vec<i64>) {
    let calls = replies.len() as i64;
    replies.sort_unstable();
    replies.dedup();
    assert_eq!(replies.len() as i64, calls, "two calls got the same value");
    assert_eq!(replies.first().copied().unwrap_or(1), 1);
    assert_eq!(replies.last().copied().unwrap_or(0), calls);
}
