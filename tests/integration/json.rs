//! `Json<T>` parameters and replies against a real server: a struct goes in
//! as JSON, the script changes it with cjson, and the reply comes back as
//! the struct; a reply that does not fit is an error naming the script.

use redis_script::{ErrorKind, Json, redis_script};
use serde::{Deserialize, Serialize};

use crate::server::RedisServer;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Order {
    id: u64,
    customer: Customer,
    items: Vec<String>,
    #[serde(default)]
    lines: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Customer {
    name: String,
    vip: bool,
}

#[redis_script(file = "tests/lua/json_order.lua", keys = 1)]
fn add_item(key: &str, order: &Json<Order>, item: &str) -> Json<Order>;

#[redis_script(file = "tests/lua/json_order.lua", keys = 1)]
fn add_item_or_nil(key: &str, order: &Json<Order>, item: &str) -> Option<Json<Order>>;

fn order() -> Json<Order> {
    Json(Order {
        id: 42,
        customer: Customer {
            name: "Ann \"A\" Lee".to_owned(),
            vip: true,
        },
        items: vec!["tea".to_owned()],
        lines: 1,
    })
}

#[test]
fn a_struct_round_trips_through_cjson() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let Json(reply) = add_item("order:42", &order(), "cake")
        .invoke(&mut con)
        .unwrap();
    assert_eq!(reply.items, ["tea", "cake"]);
    assert_eq!(reply.lines, 2);
    assert_eq!(reply.customer, order().0.customer);
    // What the script stored is the same JSON.
    let stored: String = redis::cmd("GET").arg("order:42").query(&mut con).unwrap();
    let stored: Order = serde_json::from_str(&stored).unwrap();
    assert_eq!(stored, reply);
}

#[test]
fn a_reply_that_does_not_fit_is_an_error_naming_the_script() {
    let server = RedisServer::start();
    let mut con = server.connection();
    for (variant, says) in [
        ("broken", "not JSON for"),
        ("wrong", "invalid type"),
        ("nothing", "nil"),
    ] {
        let error = add_item("order:1", &order(), variant)
            .invoke(&mut con)
            .unwrap_err();
        assert_eq!(error.script(), "add_item", "{variant}");
        assert!(
            matches!(error.kind(), ErrorKind::Reply { .. }),
            "{variant}: {error}"
        );
        assert!(error.to_string().contains(says), "{variant}: {error}");
    }
    // Nil fits an Option.
    assert_eq!(
        add_item_or_nil("order:1", &order(), "nothing")
            .invoke(&mut con)
            .unwrap(),
        None
    );
}
