//! A `#[variadic]` last key parameter: a list of keys of any length, after
//! the fixed ones; KEYS indexes past the fixed keys are not out of range.

use redis_script::{Arity, redis_script};

/// `KEYS[1]`, `KEYS[2]` and `#KEYS`, all from the list.
#[redis_script(file = "tests/ui/lua/keys_by_index.lua", keys = 1)]
fn keys_by_index(#[variadic] keys: &[&str]) -> redis_script::redis::Value;

/// A fixed key, a list of keys, and an ARGV tail, all three.
#[redis_script(file = "tests/ui/lua/keys_by_index.lua", keys = 2)]
fn fixed_and_listed(first: &str, #[variadic] more: Vec<String>, #[variadic] rest: &[u64]) -> redis_script::redis::Value;

fn main() {
    assert_eq!(keys_by_index::SCRIPT.key_arity(), Arity::AtLeast(0));
    assert!(keys_by_index::SCRIPT.key_names().is_empty());
    let script = &fixed_and_listed::SCRIPT;
    assert_eq!(script.key_names(), ["first"]);
    assert_eq!(script.key_arity(), Arity::AtLeast(1));
    assert_eq!(script.arg_arity(), Arity::AtLeast(0));
    let _ = keys_by_index(&[]);
    let _ = fixed_and_listed("a", vec!["b".to_owned()], &[1, 2]);
}
