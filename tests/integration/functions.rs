//! Redis Functions bindings (`#[redis_function]`) on a real server: FCALL
//! and FCALL_RO, recovery when the library is missing or in another
//! version (a function missing, or registered without `no-writes`), the
//! version check, loading bindings from the registry, errors that name the
//! function, a library made with `--- @include`, pipelines, async calls and
//! a cluster.

use redis::Value;
use redis_script::{
    Applied, ErrorClass, ErrorKind, LibraryStatus, Script, ScriptPipeline, redis_function, registry,
};

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

/// `stock_add` again, with a reply type too small for some counts.
#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn add_stock_small(stock: &str, item: &str, amount: i64) -> u8;

/// `stock_count` (`no-writes`, so FCALL_RO) once per test that counts its
/// recoveries, so that tests running at once do not add to each other's.
#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_count",
    keys = 1
)]
fn count_after_deploy(stock: &str, item: &str) -> i64;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_count",
    keys = 1
)]
fn count_after_deploy_async(stock: &str, item: &str) -> i64;

/// A function of a library whose helpers are included Lua files.
#[redis_function(
    library = "tests/lua/functions/ledger.lua",
    name = "ledger_move",
    keys = 2
)]
fn move_stock(from: &str, to: &str, item: &str, amount: i64) -> Option<i64>;

/// Version 2 of the library, as another build of the application would
/// load it (not bound here: one binary holds one version of a library).
const STOCK_V2: &str = include_str!("../lua/functions/stock_v2.lua");

/// The library as an older build loaded it: `stock_count` without
/// `no-writes`.
const STOCK_WRITABLE_COUNT: &str = include_str!("../lua/functions/stock_writable_count.lua");

fn load_replacing(con: &mut dyn redis::ConnectionLike, code: &str) {
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg("REPLACE")
        .arg(code)
        .exec(con)
        .unwrap();
}

/// Takes `FUNCTION LOAD` from the default user, as an ACL might.
fn deny_function_load(con: &mut dyn redis::ConnectionLike) {
    redis::cmd("ACL")
        .arg("SETUSER")
        .arg("default")
        .arg("-function|load")
        .exec(con)
        .unwrap();
}

/// What every error of `add_stock` starts with.
const NAMED_ADD_STOCK: &str = "binding `add_stock` of function `stock_add` in library `stock` (tests/lua/functions/stock.lua): ";

/// Asserts that `error` names the binding, its function and its library.
fn assert_names(error: &redis_script::Error, binding: &str, function: &str, library: &str) {
    assert_eq!(error.script(), binding, "{error}");
    assert_eq!(error.function(), Some(function), "{error}");
    assert_eq!(error.library(), Some(library), "{error}");
    let named = format!("binding `{binding}` of function `{function}` in library `{library}` (");
    assert!(error.to_string().starts_with(&named), "{error}");
}

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
    // The function's own error names the binding, the function and the library.
    let error = add_stock("stock", "apple", 0).invoke(&mut con).unwrap_err();
    assert_eq!(error.script(), "add_stock");
    assert_eq!(error.file(), "tests/lua/functions/stock.lua");
    assert_names(&error, "add_stock", "stock_add", "stock");
    assert!(error.to_string().starts_with(NAMED_ADD_STOCK), "{error}");
    assert!(
        error.to_string().contains("amount must be a positive"),
        "{error}"
    );
    // So does a reply that does not fit the declared type.
    let error = add_stock_small("stock", "apple", 300)
        .invoke(&mut con)
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Reply { .. }), "{error}");
    assert_eq!(error.applied(), Applied::Yes);
    assert_names(&error, "add_stock_small", "stock_add", "stock");
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
    assert_eq!(error.class(), ErrorClass::Load);
    assert_names(&error, "stock_take", "stock_take", "stock");
    assert!(error.to_string().contains("already exists"), "{error}");
    // Loading the library alone names the library.
    let error = stock_take::LIBRARY.load(&mut con).unwrap_err();
    assert_eq!(error.library(), Some("stock"));
    assert_eq!(error.function(), None);
    assert!(
        error
            .to_string()
            .starts_with("library `stock` (tests/lua/functions/stock.lua): "),
        "{error}"
    );
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
    let mut con = server.multiplexed().await;
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
    // Keys in two slots: the cluster's refusal names the function too.
    let error = move_stock(&keys[0], &keys[1], "apple", 1)
        .invoke(&mut con)
        .unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::CrossSlot { .. }),
        "{error}"
    );
    assert_eq!(error.applied(), Applied::No);
    assert_names(&error, "move_stock", "ledger_move", "ledger");
}

#[test]
fn a_no_writes_function_the_server_holds_without_the_flag_loads_this_version() {
    let server = RedisServer::start();
    let mut raw = server.connection();
    for pipelining in [true, false] {
        // A rolling deploy that adds `no-writes`: the server holds the old
        // version, and refuses FCALL_RO of it.
        load_replacing(&mut raw, STOCK_WRITABLE_COUNT);
        redis::cmd("HSET")
            .arg("stock")
            .arg("kiwi")
            .arg(5)
            .exec(&mut raw)
            .unwrap();
        let refused: redis::RedisResult<i64> = redis::cmd("FCALL_RO")
            .arg("stock_count")
            .arg(1)
            .arg("stock")
            .arg("kiwi")
            .query(&mut raw);
        let refused = refused.unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("write flag using *_ro command"),
            "{refused}"
        );
        let before = count_after_deploy::SCRIPT.stats();
        let mut con = Counting::new(&mut raw);
        con.pipelining = pipelining;
        assert_eq!(
            count_after_deploy("stock", "kiwi")
                .invoke(&mut con)
                .unwrap(),
            5
        );
        // FCALL_RO, then FUNCTION LOAD REPLACE + FCALL_RO (pipelined, or
        // as two round trips where the connection cannot pipeline).
        assert_eq!(con.round_trips, if pipelining { 2 } else { 3 });
        let counted = count_after_deploy::SCRIPT.stats().since(&before);
        assert_eq!((counted.calls(), counted.recoveries()), (1, 1));
        assert_eq!(counted.errors(), 0);
        assert_eq!(
            count_after_deploy::LIBRARY.status(&mut raw).unwrap(),
            LibraryStatus::Current
        );
        // The old build's FCALL of the function runs the new version too.
        let count: i64 = redis::cmd("FCALL")
            .arg("stock_count")
            .arg(1)
            .arg("stock")
            .arg("kiwi")
            .query(&mut raw)
            .unwrap();
        assert_eq!(count, 5);
    }
}

#[test]
fn a_refused_reload_fails_the_call_as_a_load_that_ran_nothing() {
    let server = RedisServer::start();
    let mut raw = server.connection();
    load_replacing(&mut raw, STOCK_WRITABLE_COUNT);
    deny_function_load(&mut raw);
    for pipelining in [true, false] {
        let mut con = Counting::new(&mut raw);
        con.pipelining = pipelining;
        let error = count_stock("stock", "kiwi").invoke(&mut con).unwrap_err();
        assert_eq!(error.class(), ErrorClass::Load, "{error}");
        assert_eq!(error.applied(), Applied::No, "{error}");
        assert_eq!(error.code(), Some("NOPERM"), "{error}");
        assert_names(&error, "count_stock", "stock_count", "stock");
    }
    // The server still holds the old version.
    assert_eq!(
        count_stock::LIBRARY.status(&mut raw).unwrap(),
        LibraryStatus::Other
    );
    // A `no-writes` refusal that no load follows (a pipeline's call) is
    // not applied either.
    let call = count_stock("stock", "kiwi");
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&call).unwrap();
    let replies: Vec<redis::RedisResult<Value>> = pipe.ignore_errors().query(&mut raw).unwrap();
    let error = call.decode(replies[0].clone()).unwrap_err();
    assert_eq!(error.applied(), Applied::No, "{error}");
    assert_eq!(error.class(), ErrorClass::Refused, "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_calls_load_a_version_with_the_no_writes_flag_too() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let mut con = server.multiplexed().await;
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg(STOCK_WRITABLE_COUNT)
        .exec_async(&mut con)
        .await
        .unwrap();
    let before = count_after_deploy_async::SCRIPT.stats();
    assert_eq!(
        count_after_deploy_async("stock", "kiwi")
            .invoke_async(&mut con)
            .await
            .unwrap(),
        0
    );
    let counted = count_after_deploy_async::SCRIPT.stats().since(&before);
    assert_eq!((counted.calls(), counted.recoveries()), (1, 1));
    assert_eq!(
        count_after_deploy_async::LIBRARY
            .status_async(&mut con)
            .await
            .unwrap(),
        LibraryStatus::Current
    );
    // Refused: the error of the load, naming the function.
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg("REPLACE")
        .arg(STOCK_WRITABLE_COUNT)
        .exec_async(&mut con)
        .await
        .unwrap();
    redis::cmd("ACL")
        .arg("SETUSER")
        .arg("default")
        .arg("-function|load")
        .exec_async(&mut con)
        .await
        .unwrap();
    let error = count_after_deploy_async("stock", "kiwi")
        .invoke_async(&mut con)
        .await
        .unwrap_err();
    assert_eq!(
        (error.class(), error.applied()),
        (ErrorClass::Load, Applied::No)
    );
    assert_names(&error, "count_after_deploy_async", "stock_count", "stock");
}

/// The bindings of this module, all of them `#[redis_function]`s.
fn functions_here() -> Vec<&'static Script> {
    registry::scripts()
        .filter(|script| script.binding_path().starts_with(module_path!()))
        .collect()
}

#[test]
fn script_load_of_a_function_binding_loads_its_library() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let here = functions_here();
    assert!(here.len() >= 5, "{here:?}");
    // The registry tells the kinds apart.
    assert!(here.iter().all(|script| script.library().is_some()));
    assert!(here.iter().all(|script| script.sha1().is_empty()));
    assert!(registry::scripts().any(|script| script.library().is_none()));
    // One binding: its library.
    add_stock::SCRIPT.load(&mut con).unwrap();
    assert_eq!(
        add_stock::LIBRARY.status(&mut con).unwrap(),
        LibraryStatus::Current
    );
    assert_eq!(
        move_stock::LIBRARY.status(&mut con).unwrap(),
        LibraryStatus::Missing
    );
    // Each binding of the whole registry, scripts and functions alike.
    flush_functions(&mut con);
    for script in registry::scripts() {
        script.load(&mut con).unwrap();
    }
    for library in [&add_stock::LIBRARY, &move_stock::LIBRARY] {
        assert_eq!(library.status(&mut con).unwrap(), LibraryStatus::Current);
    }
    // A subset with `registry::load`: each library once, no SCRIPT LOAD.
    flush_functions(&mut con);
    reset_stats(&mut con);
    let loaded = registry::load(&mut con, functions_here()).unwrap();
    let names: Vec<&str> = loaded.libraries.iter().map(|l| l.name()).collect();
    assert_eq!(names, ["stock", "ledger"]);
    assert!(loaded.scripts.is_empty());
    assert_eq!(command_calls(&mut con, "function|load"), 2);
    assert_eq!(command_calls(&mut con, "script|load"), 0);
    assert_eq!(
        move_stock::LIBRARY.status(&mut con).unwrap(),
        LibraryStatus::Current
    );
    // A refused load names the binding, the function and the library.
    deny_function_load(&mut con);
    let error = add_stock::SCRIPT.load(&mut con).unwrap_err();
    assert!(error.to_string().starts_with(NAMED_ADD_STOCK), "{error}");
    assert_eq!(
        (error.class(), error.applied(), error.code()),
        (ErrorClass::Load, Applied::No, Some("NOPERM"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn script_load_async_of_a_function_binding_loads_its_library() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let mut con = server.multiplexed().await;
    move_stock::SCRIPT.load_async(&mut con).await.unwrap();
    assert_eq!(
        move_stock::LIBRARY.status_async(&mut con).await.unwrap(),
        LibraryStatus::Current
    );
    let loaded = registry::load_async(&mut con, functions_here())
        .await
        .unwrap();
    assert_eq!(loaded.libraries.len(), 2);
}

#[test]
fn a_library_may_include_shared_lua() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let code = move_stock::LIBRARY.code();
    assert!(code.starts_with("#!lua name=ledger\n"), "{code}");
    assert!(!code.contains("@include"), "{code}");
    // numbers.lua, included by both checks.lua and counters.lua: once.
    assert_eq!(code.matches("local function count_of").count(), 1);
    assert!(code.contains("local function positive"), "{code}");
    assert!(code.contains("local function bump"), "{code}");
    redis::cmd("HSET")
        .arg("{shop}:a")
        .arg("apple")
        .arg(5)
        .exec(&mut con)
        .unwrap();
    // The first call loads the composed library, which runs its helpers.
    assert_eq!(
        move_stock("{shop}:a", "{shop}:b", "apple", 2)
            .invoke(&mut con)
            .unwrap(),
        Some(3)
    );
    assert_eq!(
        move_stock::LIBRARY.status(&mut con).unwrap(),
        LibraryStatus::Current
    );
    let moved: i64 = redis::cmd("HGET")
        .arg("{shop}:b")
        .arg("apple")
        .query(&mut con)
        .unwrap();
    assert_eq!(moved, 2);
    assert_eq!(
        move_stock("{shop}:a", "{shop}:b", "apple", 4)
            .invoke(&mut con)
            .unwrap(),
        None
    );
    let error = move_stock("{shop}:a", "{shop}:b", "apple", 0)
        .invoke(&mut con)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("amount must be a positive whole number"),
        "{error}"
    );
    assert_names(&error, "move_stock", "ledger_move", "ledger");
    // Keys in two slots are refused before anything is sent.
    let error = move_stock("a", "b", "apple", 1).check_slots().unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::CrossSlot { .. }),
        "{error}"
    );
    assert_names(&error, "move_stock", "ledger_move", "ledger");
}
