//! Scripts that declare their signature in a header, bound by one line for
//! the whole folder (`tests/lua/headed/`), run on a real server: each header
//! type arrives as the Rust type the mapping gives, and the generated
//! metadata names what the header names.

use std::collections::HashMap;

use redis::Value;
use redis_script::{Arity, redis_script};

use crate::server::RedisServer;

redis_script::scripts!(mod headed = "tests/lua/headed");

/// A hand-written declaration of a headed script, which the header checks.
#[redis_script(file = "tests/lua/headed/read_field.lua", keys = 1)]
fn read_field_by_hand(record: &str, field: &str) -> Option<String>;

#[test]
fn each_header_type_arrives_as_its_rust_type() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let added: i64 = headed::add_scores("board", 1.5, &["ann", "bob"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(added, 2);
    headed::add_scores("board", 2.5, &["cid"])
        .invoke(&mut con)
        .unwrap();
    let top: Vec<String> = headed::top_members("board", 2).invoke(&mut con).unwrap();
    assert_eq!(top, ["cid", "bob"]);

    redis::cmd("HSET")
        .arg("rec")
        .arg("name")
        .arg("ann")
        .arg("team")
        .arg("red")
        .exec(&mut con)
        .unwrap();
    let name: Option<String> = headed::read_field("rec", "name").invoke(&mut con).unwrap();
    assert_eq!(name.as_deref(), Some("ann"));
    assert_eq!(
        headed::read_field("rec", "none").invoke(&mut con).unwrap(),
        None
    );
    assert_eq!(
        read_field_by_hand("rec", "team")
            .invoke(&mut con)
            .unwrap()
            .as_deref(),
        Some("red")
    );
    let record: HashMap<String, String> = headed::whole_record("rec").invoke(&mut con).unwrap();
    assert_eq!(record.len(), 2);
    assert_eq!(record["team"], "red");

    let changed: bool = headed::set_flag("flag", true).invoke(&mut con).unwrap();
    assert!(changed);
    assert!(!headed::set_flag("flag", true).invoke(&mut con).unwrap());
    assert!(headed::set_flag("flag", false).invoke(&mut con).unwrap());

    let pong: Value = headed::server_reply().invoke(&mut con).unwrap();
    assert!(
        matches!(pong, Value::Okay | Value::SimpleString(_)),
        "{pong:?}"
    );
    // `---@key ...`: `keys`, a list of keys after the fixed ones.
    redis::cmd("SADD")
        .arg("s1")
        .arg("x")
        .exec(&mut con)
        .unwrap();
    let union: i64 = headed::union_sets("u", &["s1", "none"], 0, &["y"])
        .invoke(&mut con)
        .unwrap();
    assert_eq!(union, 2);
    let (): () = headed::forget("flag").invoke(&mut con).unwrap();
    let exists: bool = redis::cmd("EXISTS").arg("flag").query(&mut con).unwrap();
    assert!(!exists);
}

#[test]
fn the_generated_metadata_names_what_the_header_names() {
    let script = &headed::add_scores::SCRIPT;
    assert_eq!(script.name(), "add_scores");
    assert_eq!(script.file(), "tests/lua/headed/add_scores.lua");
    assert_eq!(script.key_names(), ["board"]);
    assert_eq!(script.arg_names(), ["score"]);
    assert_eq!(script.arg_arity(), Arity::AtLeast(1));
    assert_eq!(script.reply_type(), "i64");
    let union = &headed::union_sets::SCRIPT;
    assert_eq!(union.key_names(), ["destination"]);
    assert_eq!(union.key_arity(), Arity::AtLeast(1));
    assert_eq!(
        headed::whole_record::SCRIPT.reply_type(),
        "HashMap<String, String>"
    );
    assert_eq!(
        headed::read_field::SCRIPT.binding_path(),
        "integration::headers::headed::read_field"
    );
}
