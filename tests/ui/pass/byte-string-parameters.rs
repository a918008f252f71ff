//! Byte strings are one Redis value each, so they fill a key or a fixed
//! argument like a `&str` does; so do collections of a generic parameter,
//! which are checked when the call is built.

use redis_script::redis::ToRedisArgs;
use redis_script::redis_script;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_bytes(key: &[u8], owned: Vec<u8>, digest: &[u8; 4]) -> Vec<Vec<u8>>;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
fn echo_generic<T: ToRedisArgs>(key: &str, values: &[T]) -> Vec<Vec<u8>>;

fn main() {
    let call = echo_bytes(b"key", b"owned".to_vec(), b"\x00\x01\x02\x03");
    let evalsha = call.evalsha_cmd().expect("every parameter is one value");
    // EVALSHA, the SHA1, the key count, then one value per parameter.
    assert_eq!(evalsha.args_iter().count(), 3 + 3);

    assert!(echo_generic("key", &[7u8, 8]).evalsha_cmd().is_ok(), "bytes: one value");
    assert!(echo_generic("key", &["a", "b"]).evalsha_cmd().is_err(), "two values");
}
