//! Scripts composed from shared Lua (`--- @include`, BullMQ's convention):
//! the text a binding carries is the composed one, the server loads it with
//! the SHA1 the binding carries, and the helpers compute what they should.
//! `tests/lua/includes/` has two scripts sharing `includes/counters.lua`,
//! which includes `numbers.lua`, as `includes/checks.lua` also does.

use redis_script::{Script, redis_script};

use crate::server::RedisServer;

#[redis_script(file = "tests/lua/includes/add_stock.lua", keys = 1)]
fn add_stock(stock: &str, item: &str, amount: i64) -> i64;

#[redis_script(file = "tests/lua/includes/take_stock.lua", keys = 1)]
fn take_stock(stock: &str, item: &str) -> Option<i64>;

#[test]
fn composed_scripts_load_with_the_sha1_they_carry_and_run_their_helpers() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for script in [&add_stock::SCRIPT, &take_stock::SCRIPT] {
        let sha1: String = script.load_cmd().query(&mut con).unwrap();
        assert_eq!(sha1, script.sha1(), "{}", script.file());
    }
    assert_eq!(add_stock("stock", "apple", 2).invoke(&mut con).unwrap(), 2);
    assert_eq!(add_stock("stock", "apple", 3).invoke(&mut con).unwrap(), 5);
    let error = add_stock("stock", "apple", 0).invoke(&mut con).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("amount must be a positive whole number"),
        "{error}"
    );
    assert_eq!(
        take_stock("stock", "apple").invoke(&mut con).unwrap(),
        Some(4)
    );
    assert_eq!(take_stock("stock", "pear").invoke(&mut con).unwrap(), None);
}

/// What the included files say, in the order the composition places them.
fn helpers_in(script: &Script) -> Vec<&'static str> {
    [
        "local function count_of",
        "local function positive",
        "local function bump",
        "local function current",
    ]
    .into_iter()
    .filter(|helper| script.source().contains(helper))
    .collect()
}

#[test]
fn the_sent_text_is_the_composition_each_file_once() {
    let add = add_stock::SCRIPT.source();
    assert!(!add.contains("@include"), "{add}");
    // numbers.lua is included by both checks.lua and counters.lua: once.
    assert_eq!(add.matches("local function count_of").count(), 1);
    assert_eq!(
        helpers_in(&add_stock::SCRIPT),
        [
            "local function count_of",
            "local function positive",
            "local function bump",
            "local function current"
        ]
    );
    assert!(add.find("count_of").unwrap() < add.find("local function positive").unwrap());
    assert_eq!(
        helpers_in(&take_stock::SCRIPT),
        [
            "local function count_of",
            "local function bump",
            "local function current"
        ]
    );
    // The script's own lines are kept, the header included.
    assert!(add.starts_with("--- Adds stock of an item"));
    assert!(add.ends_with("return bump(KEYS[1], ARGV[1], amount)\n"));
}
