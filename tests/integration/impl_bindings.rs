//! Bindings grouped in a `#[bindings] impl` block, on a real server: called
//! as associated functions, alone, in a batch and async; a function of a
//! library recovers a flushed library; and `load_all` loads them like any
//! module-level binding.

use redis_script::{Batch, LibraryStatus, bindings, redis_function, redis_script};

use crate::counter::counter_value;
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::server::RedisServer;

/// A service's scripts, grouped under its type.
struct Counters;

#[bindings]
impl Counters {
    /// Adds one to the counter and replies its new value.
    #[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
    fn incr(counter: &str) -> i64;

    /// Stores a value and replies what is stored.
    #[redis_script(file = "tests/lua/set_value.lua", keys = 1)]
    pub(crate) fn set(key: &str, value: &str) -> Option<String>;

    #[redis_function(
        library = "tests/lua/functions/stock.lua",
        name = "stock_add",
        keys = 1
    )]
    fn add_stock(stock: &str, item: &str, amount: i64) -> i64;

    /// An ordinary associated item beside the bindings.
    const COUNTER: &'static str = "impl:counter";
}

#[test]
fn associated_bindings_run_alone_and_in_a_batch() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert_eq!(
        Counters::incr(Counters::COUNTER).invoke(&mut con).unwrap(),
        1
    );
    assert_eq!(
        Counters::set("impl:value", "stored")
            .invoke(&mut con)
            .unwrap()
            .as_deref(),
        Some("stored")
    );

    let mut batch = Batch::new();
    let calls: Vec<_> = (0..3)
        .map(|_| batch.add(&Counters::incr(Counters::COUNTER)).unwrap())
        .collect();
    let mut replies = batch.run(&mut con);
    let values: Vec<i64> = calls.iter().map(|c| replies.take(c).unwrap()).collect();
    assert_eq!(values, [2, 3, 4]);
    assert_eq!(counter_value(&mut con, Counters::COUNTER), 4);
}

#[test]
fn an_error_names_the_binding_as_written() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("SET")
        .arg(Counters::COUNTER)
        .arg("not a number")
        .exec(&mut con)
        .unwrap();
    let error = Counters::incr(Counters::COUNTER)
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(error.script(), "incr", "{error}");
    assert_eq!(error.file(), "tests/lua/incr_counter.lua");
}

#[test]
fn a_function_of_a_library_recovers_a_flushed_library() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert_eq!(
        Counters::add_stock("impl:stock", "apple", 2)
            .invoke(&mut con)
            .unwrap(),
        2
    );
    redis::cmd("FUNCTION").arg("FLUSH").exec(&mut con).unwrap();
    assert_eq!(
        Counters::add_stock("impl:stock", "apple", 3)
            .invoke(&mut con)
            .unwrap(),
        5
    );
    let library = Counters::add_stock_script().library().unwrap();
    assert_eq!(library.status(&mut con).unwrap(), LibraryStatus::Current);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn associated_bindings_run_async() {
    let server = RedisServer::start();
    let mut con = server.multiplexed().await;
    for expected in 1..=3 {
        let value = Counters::incr("impl:async")
            .invoke_async(&mut con)
            .await
            .unwrap();
        assert_eq!(value, expected);
    }
}

#[test]
fn load_all_loads_them_and_calls_then_need_no_eval() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let incr = Counters::incr_script();
    assert!(!script_cached(&mut con, incr));
    redis_script::load_all(&mut con).unwrap();
    assert!(script_cached(&mut con, incr));
    assert!(script_cached(&mut con, Counters::set_script()));

    reset_stats(&mut con);
    Counters::incr(Counters::COUNTER).invoke(&mut con).unwrap();
    assert_eq!(command_calls(&mut con, "eval"), 0);
    assert_eq!(command_calls(&mut con, "evalsha"), 1);

    flush_scripts(&mut con);
    assert!(!script_cached(&mut con, incr));
}

#[test]
fn registry_lists_them_under_the_type() {
    let listed = |path: &str| redis_script::registry::scripts().any(|s| s.binding_path() == path);
    assert!(listed("integration::impl_bindings::Counters::incr"));
    assert!(listed("integration::impl_bindings::Counters::set"));
    assert!(listed("integration::impl_bindings::Counters::add_stock"));
}
