// The header declares a list of keys (`---@key ...`) and an ARGV tail;
// one declaration lacks the list, the other has a list the header lacks.
use redis_script::redis_script;

#[redis_script(file = "tests/lua/headed/union_sets.lua", keys = 2)]
fn without_list(destination: &str, source: &str, ttl_secs: i64, #[variadic] rest: &[&str]) -> i64;

#[redis_script(file = "tests/lua/headed/add_scores.lua", keys = 1)]
fn with_list(#[variadic] keys: &[&str], score: f64, #[variadic] rest: &[&str]) -> i64;

fn main() {}
