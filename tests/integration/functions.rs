//! Redis Functions bindings (`#[redis_function]`) on a real server: FCALL
//! and FCALL_RO, recovery when the library is missing or in another
//! version, the version check, pipelines, async calls and a cluster.

use redis::Value;
use redis_script::{LibraryStatus, ScriptPipeline, redis_function};

use crate::cluster_server::RedisCluster;
use crate::invocation::{Counting, command_calls, reset_stats};
use crate::server::RedisServer;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn add_stock(stock: &str, item: &str, amount: i64) -> i64;

#[redis_function(library = "tests/lua/functions/stock.lua", keys = 1)]
fn stock_take(stock: &str, item: &str) -> Option<i64>;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_count",
    keys = 1
)]
fn count_stock(stock: &str, item: &str) -> i64;

/// Version 2 of the library, as another build of the application would
/// load it (not bound here: one binary holds one version of a library).
const STOCK_V2: &str = include_str!("../lua/functions/stock_v2.lua");

fn flush_functions(con: &mut dyn redis::ConnectionLike) {
    redis::cmd("FUNCTION").arg("FLUSH").exec(con).unwrap();
}

#[test]
fn calls_use_fcall_and_fcall_ro_for_no_writes_functions() {
    let server = RedisServer::start();
    let mut con = server.connection();
    add_stock::LIBRARY.load(&mut con).unwrap();
    reset_stats(&mut con);
    assert_eq!(add_stock("stock", "apple", 3).invoke(&mut con).unwrap(), 3);
    assert_eq!(count_stock("stock", "apple").invoke(&mut con).unwrap(), 3);
    assert_eq!(
        stock_take("stock", "apple").invoke(&mut con).unwrap(),
        Some(2)
    );
    assert_eq!(stock_take("stock", "pear").invoke(&mut con).unwrap(), None);
    assert_eq!(command_calls(&mut con, "fcall"), 3);
    assert_eq!(command_calls(&mut con, "fcall_ro"), 1);
    // The function's own error names the binding.
    let error = add_stock("stock", "apple", 0).invoke(&mut con).unwrap_err();
    assert_eq!(error.script(), "add_stock");
    assert!(
        error.to_string().contains("amount must be a positive"),
        "{error}"
    );
    // The metadata.
    let script = &count_stock::SCRIPT;
    assert_eq!(script.function_name(), Some("stock_count"));
    assert!(script.is_read_only());
    assert_eq!(script.library().unwrap().name(), "stock");
    assert_eq!(script.key_names(), ["stock"]);
    assert!(add_stock::LIBRARY.code().starts_with("#!lua name=stock\n"));
}

#[test]
fn a_flushed_library_is_loaded_again_in_one_more_round_trip() {
    let server = RedisServer::start();
    let mut raw = server.connection();
    for pipelining in [true, false] {
        flush_functions(&mut raw);
        let mut con = Counting::new(&mut raw);
        con.pipelining = pipelining;
        assert_eq!(
            add_stock("stock", "fig", 1).invoke(&mut con).unwrap(),
            if pipelining { 1 } else { 3 }
        );
        // One round trip for FCALL, one for FUNCTION LOAD + FCALL pipelined
        // (or, on a connection that cannot pipeline, two: load, then call).
        assert_eq!(con.round_trips, if pipelining { 2 } else { 3 });
        con.round_trips = 0;
        add_stock("stock", "fig", 1).invoke(&mut con).unwrap();
        assert_eq!(con.round_trips, 1);
    }
}

#[test]
fn another_version_is_told_apart_and_a_missing_function_brings_this_one_back() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let library = &count_stock::LIBRARY;
    assert_eq!(library.status(&mut con).unwrap(), LibraryStatus::Missing);
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg(STOCK_V2)
        .exec(&mut con)
        .unwrap();
    assert_eq!(library.status(&mut con).unwrap(), LibraryStatus::Other);
    redis::cmd("HSET")
        .arg("stock")
        .arg("kiwi")
        .arg(5)
        .exec(&mut con)
        .unwrap();
    // A function both versions have runs in the server's version: doubled.
    assert_eq!(count_stock("stock", "kiwi").invoke(&mut con).unwrap(), 10);
    // One that version 2 lacks loads this build's version, and runs.
    assert_eq!(
        stock_take("stock", "kiwi").invoke(&mut con).unwrap(),
        Some(4)
    );
    assert_eq!(library.status(&mut con).unwrap(), LibraryStatus::Current);
    assert_eq!(count_stock("stock", "kiwi").invoke(&mut con).unwrap(), 4);
}

#[test]
fn a_library_the_server_refuses_fails_the_call_with_its_error_and_nothing_runs() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // Another library already registers `stock_add`: loading ours is refused.
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg(
            "#!lua name=squatter\nredis.register_function('stock_add', function() return -1 end)\n",
        )
        .exec(&mut con)
        .unwrap();
    let error = stock_take("stock", "apple").invoke(&mut con).unwrap_err();
    assert_eq!(error.applied(), redis_script::Applied::No);
    assert!(error.to_string().contains("already exists"), "{error}");
    let taken: Option<String> = redis::cmd("HGET")
        .arg("stock")
        .arg("apple")
        .query(&mut con)
        .unwrap();
    assert_eq!(taken, None);
}

#[test]
fn pipelines_queue_function_calls_after_the_library_is_loaded() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis_script::load_all(&mut con).unwrap();
    let mut pipe = redis::pipe();
    pipe.atomic();
    let add = add_stock("stock", "plum", 2);
    let count = count_stock("stock", "plum");
    pipe.evalsha_script(&add)
        .unwrap()
        .eval_script(&count)
        .unwrap();
    let replies: Vec<Value> = pipe.query(&mut con).unwrap();
    assert_eq!(replies.len(), 2, "no load is queued for a function");
    assert_eq!(add.decode(Ok(replies[0].clone())).unwrap(), 2);
    assert_eq!(count.decode(Ok(replies[1].clone())).unwrap(), 2);
    // Without the library, a call's place holds "Function not found".
    flush_functions(&mut con);
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&count).unwrap();
    let replies: Vec<redis::RedisResult<Value>> = pipe.ignore_errors().query(&mut con).unwrap();
    let error = count.decode(replies[0].clone()).unwrap_err();
    assert!(error.to_string().contains("Function not found"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_calls_recover_a_flushed_library_too() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let mut con = server
        .client()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    assert_eq!(
        add_stock("stock", "lime", 2)
            .invoke_async(&mut con)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        count_stock::LIBRARY.status_async(&mut con).await.unwrap(),
        LibraryStatus::Current
    );
    assert_eq!(
        count_stock("stock", "lime")
            .invoke_async(&mut con)
            .await
            .unwrap(),
        2
    );
}

#[test]
fn on_a_cluster_calls_go_to_their_keys_primary_and_loading_reaches_every_primary() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    let keys = cluster.one_key_per_primary(|n| format!("stock:{n}"));
    for key in &keys {
        assert_eq!(add_stock(key, "apple", 1).invoke(&mut con).unwrap(), 1);
    }
    for primary in cluster.primaries() {
        assert_eq!(
            add_stock::LIBRARY
                .status(&mut primary.connection())
                .unwrap(),
            LibraryStatus::Current,
            "primary {}",
            primary.port()
        );
    }
    let loaded = redis_script::load_all(&mut con).unwrap();
    assert!(
        loaded
            .libraries
            .iter()
            .any(|library| library.name() == "stock")
    );
}
