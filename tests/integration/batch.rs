//! `redis_script::Batch` on real servers: each call's own result, every
//! error named by its binding, and `applied()` right per call, checked
//! against what the server holds afterwards (a counter each applied call
//! increments). The ACL cases run as a user without `script|load`, which
//! refuses the batch's SCRIPT LOAD as some managed services and proxies do.

use redis::ConnectionLike;
use redis_script::{Applied, Batch, ErrorClass, ErrorKind, Queued, redis_script};

use crate::counter::counter_value;
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn batch_incr(counter: &str) -> i64;

/// The same script, with a reply type too small for a counter past 255.
#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn batch_incr_u8(counter: &str) -> u8;

#[redis_script(file = "tests/lua/incr_then_fail.lua", keys = 1)]
fn batch_incr_then_fail(counter: &str) -> i64;

#[redis_script(file = "tests/lua/errors.lua", keys = 0)]
fn batch_fail(how: &str) -> String;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn batch_incr_generic<K: redis::ToRedisArgs>(counter: K) -> i64;

const COUNTER: &str = "batch:counter";
const OTHER: &str = "batch:other";

/// A connection as a user who may do everything but `SCRIPT LOAD`, on a
/// server whose script cache is empty.
fn without_script_load(server: &RedisServer) -> redis::Connection {
    let mut admin = server.connection();
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut admin).unwrap();
    redis::cmd("ACL")
        .arg(&["SETUSER", "batcher", "on", "nopass", "~*", "&*", "+@all"])
        .arg("-script|load")
        .exec(&mut admin)
        .unwrap();
    let mut con = server.connection();
    redis::cmd("AUTH")
        .arg("batcher")
        .arg("any")
        .exec(&mut con)
        .unwrap();
    con
}

/// Asserts that `error` is the refused SCRIPT LOAD of `binding`'s script.
fn assert_refused_load(error: &redis_script::Error, binding: &str) {
    assert_eq!(error.script(), binding, "{error}");
    assert_eq!(error.file(), "tests/lua/incr_counter.lua");
    assert_eq!(error.code(), Some("NOPERM"), "{error}");
    assert!(error.to_string().contains("script|load"), "{error}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("script `{binding}`")),
        "{error}"
    );
    assert_eq!(error.applied(), Applied::No, "{error}");
    assert_eq!(error.class(), ErrorClass::Load);
}

/// A batch of `calls` increments of [`COUNTER`], with their handles.
fn increments(batch: &mut Batch, calls: usize) -> Vec<Queued<i64>> {
    (0..calls)
        .map(|_| batch.add(&batch_incr(COUNTER)).unwrap())
        .collect()
}

/// Runs a batch of `calls` increments as a user without `script|load`:
/// every call fails with the refused load, named, not applied; re-sent as
/// EVAL, only those, each applies once.
fn a_refused_load_fails_every_call_and_a_retry_applies_each_once(atomic: bool) {
    let server = RedisServer::start();
    let mut con = without_script_load(&server);
    let mut batch = if atomic {
        Batch::atomic()
    } else {
        Batch::new()
    };
    let calls = increments(&mut batch, 3);
    let before = batch_incr::SCRIPT.stats();
    let mut replies = batch.run(&mut con);
    let mut to_retry = 0;
    for call in &calls {
        let error = replies.take(call).unwrap_err();
        assert_refused_load(&error, "batch_incr");
        to_retry += 1;
    }
    let stats = batch_incr::SCRIPT.stats().since(&before);
    assert!(stats.errors_of(ErrorClass::Load) >= 3, "{stats:?}");
    assert_eq!(counter_value(&mut con, COUNTER), 0);

    // The retry of exactly the calls that were not applied.
    let mut retry = if atomic {
        Batch::atomic()
    } else {
        Batch::new()
    }
    .with_eval();
    let calls = increments(&mut retry, to_retry);
    let mut replies = retry.run(&mut con);
    let values: Vec<i64> = calls.iter().map(|c| replies.take(c).unwrap()).collect();
    assert_eq!(values, [1, 2, 3]);
    assert_eq!(counter_value(&mut con, COUNTER), 3);
}

#[test]
fn a_plain_batch_names_the_refused_load_and_a_retry_applies_nothing_twice() {
    a_refused_load_fails_every_call_and_a_retry_applies_each_once(false);
}

#[test]
fn an_atomic_batch_with_a_refused_load_applies_nothing_and_a_retry_applies_nothing_twice() {
    a_refused_load_fails_every_call_and_a_retry_applies_each_once(true);
}

#[test]
fn in_an_aborted_transaction_every_call_is_not_applied() {
    // One call whose SCRIPT LOAD the ACL refuses while queued, and one sent
    // as EVAL that queues fine: the server discards both (EXECABORT).
    let server = RedisServer::start();
    let mut con = without_script_load(&server);
    let mut batch = Batch::atomic();
    let loaded = batch.add(&batch_incr_then_fail(OTHER)).unwrap();
    let mut batch = batch.with_eval();
    let evaluated = batch.add(&batch_incr(COUNTER)).unwrap();
    let mut replies = batch.run(&mut con);
    let error = replies.take(&loaded).unwrap_err();
    assert_eq!(error.script(), "batch_incr_then_fail", "{error}");
    assert_eq!(error.file(), "tests/lua/incr_then_fail.lua");
    assert_eq!(error.code(), Some("NOPERM"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    let error = replies.take(&evaluated).unwrap_err();
    assert_eq!(error.script(), "batch_incr", "{error}");
    assert_eq!(error.code(), Some("EXECABORT"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(counter_value(&mut con, OTHER), 0);
    assert_eq!(counter_value(&mut con, COUNTER), 0);
}

#[test]
fn a_mixed_plain_batch_gives_each_call_its_own_result() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("SET")
        .arg(OTHER)
        .arg(255)
        .exec(&mut con)
        .unwrap();
    let mut batch = Batch::new();
    let first = batch.add(&batch_incr(COUNTER)).unwrap();
    let halfway = batch.add(&batch_incr_then_fail(COUNTER)).unwrap();
    let lua_error = batch.add(&batch_fail("error")).unwrap();
    let too_big = batch.add(&batch_incr_u8(OTHER)).unwrap();
    let last = batch.add(&batch_incr(COUNTER)).unwrap();
    assert_eq!(batch.len(), 5);
    let mut replies = batch.run(&mut con);
    // The error replies; a reply that does not fit shows when taken.
    assert_eq!(
        replies.errors().map(|(call, _)| call).collect::<Vec<_>>(),
        [1, 2]
    );

    assert_eq!(replies.take(&first).unwrap(), 1);
    let error = replies.take(&halfway).unwrap_err();
    assert_eq!(error.script(), "batch_incr_then_fail");
    assert_eq!(error.code(), Some("HALFWAY"), "{error}");
    assert_eq!(error.applied(), Applied::Maybe);
    let error = replies.take(&lua_error).unwrap_err();
    assert_eq!(error.script(), "batch_fail");
    assert_eq!(error.file(), "tests/lua/errors.lua");
    assert!(error.to_string().contains("boom"), "{error}");
    assert_eq!(error.applied(), Applied::Maybe);
    let error = replies.take(&too_big).unwrap_err();
    assert_eq!(error.script(), "batch_incr_u8");
    assert!(matches!(error.kind(), ErrorKind::Reply { .. }), "{error}");
    assert_eq!(error.applied(), Applied::Yes);
    // The calls after the failed ones ran, in order: 1, the failing
    // script's write (2), then 3.
    assert_eq!(replies.take(&last).unwrap(), 3);
    assert_eq!(counter_value(&mut con, COUNTER), 3);
    assert_eq!(counter_value(&mut con, OTHER), 256);

    // A reply is taken once.
    let again = replies.take(&first).unwrap_err();
    assert_eq!(again.script(), "Batch");
    assert_eq!(again.applied(), Applied::No);
}

#[test]
fn a_lua_error_inside_multi_fails_its_call_alone() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut batch = Batch::atomic();
    assert!(batch.is_atomic());
    let first = batch.add(&batch_incr(COUNTER)).unwrap();
    let halfway = batch.add(&batch_incr_then_fail(COUNTER)).unwrap();
    let last = batch.add(&batch_incr(COUNTER)).unwrap();
    let mut replies = batch.run(&mut con);
    assert_eq!(replies.take(&first).unwrap(), 1);
    let error = replies.take(&halfway).unwrap_err();
    assert_eq!(error.script(), "batch_incr_then_fail");
    assert_eq!(error.code(), Some("HALFWAY"), "{error}");
    // MULTI does not undo the script's write before its error.
    assert_eq!(error.applied(), Applied::Maybe);
    assert_eq!(replies.take(&last).unwrap(), 3);
    assert_eq!(counter_value(&mut con, COUNTER), 3);
}

#[test]
fn a_batch_whose_script_was_flushed_loads_it_and_runs_twice_the_same() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut con).unwrap();
    let mut batch = Batch::new();
    let calls = increments(&mut batch, 2);
    for run in 0..2 {
        let mut replies = batch.run(&mut con);
        for (index, call) in calls.iter().enumerate() {
            assert_eq!(replies.take(call).unwrap(), run * 2 + index as i64 + 1);
        }
    }
}

#[test]
fn a_call_whose_argument_does_not_encode_is_not_added() {
    let mut batch = Batch::new();
    let empty: Vec<String> = Vec::new();
    let error = batch.add(&batch_incr_generic(&empty)).unwrap_err();
    assert_eq!(error.script(), "batch_incr_generic");
    assert!(matches!(error.kind(), ErrorKind::Argument { .. }));
    assert!(batch.is_empty());
}

#[test]
fn a_transaction_discarded_by_watch_applies_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut other = server.connection();
    redis::cmd("WATCH").arg(COUNTER).exec(&mut con).unwrap();
    redis::cmd("SET")
        .arg(COUNTER)
        .arg(10)
        .exec(&mut other)
        .unwrap();
    let mut batch = Batch::atomic();
    let calls = increments(&mut batch, 2);
    let mut replies = batch.run(&mut con);
    for call in &calls {
        let error = replies.take(call).unwrap_err();
        assert_eq!(error.script(), "batch_incr");
        assert_eq!(error.applied(), Applied::No, "{error}");
    }
    assert_eq!(counter_value(&mut con, COUNTER), 10);
}

#[test]
fn a_lost_connection_fails_every_call_named() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert!(con.check_connection());
    server.kill();
    let mut batch = Batch::new();
    let calls = increments(&mut batch, 2);
    let mut replies = batch.run(&mut con);
    for call in &calls {
        let error = replies.take(call).unwrap_err();
        assert_eq!(error.script(), "batch_incr");
        // Sent or not, it cannot have been applied twice; it may once.
        assert_ne!(error.applied(), Applied::Yes, "{error}");
        assert!(
            matches!(error.class(), ErrorClass::Connection | ErrorClass::Timeout),
            "{error}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_async_batch_gives_each_call_its_own_result() {
    let server = RedisServer::start();
    let mut con = server.multiplexed().await;
    redis::cmd("ACL")
        .arg(&["SETUSER", "batcher", "on", "nopass", "~*", "&*", "+@all"])
        .arg("-script|load")
        .exec_async(&mut con)
        .await
        .unwrap();
    let mut batch = Batch::new();
    let first = batch.add(&batch_incr(COUNTER)).unwrap();
    let halfway = batch.add(&batch_incr_then_fail(COUNTER)).unwrap();
    let last = batch.add(&batch_incr(COUNTER)).unwrap();
    let mut replies = batch.run_async(&mut con).await;
    assert_eq!(replies.take(&first).unwrap(), 1);
    let error = replies.take(&halfway).unwrap_err();
    assert_eq!(error.code(), Some("HALFWAY"));
    assert_eq!(error.applied(), Applied::Maybe);
    assert_eq!(replies.take(&last).unwrap(), 3);

    // As a user without `script|load`, atomic, on a flushed cache.
    redis::cmd("SCRIPT")
        .arg("FLUSH")
        .exec_async(&mut con)
        .await
        .unwrap();
    redis::cmd("AUTH")
        .arg("batcher")
        .arg("any")
        .exec_async(&mut con)
        .await
        .unwrap();
    let mut batch = Batch::atomic();
    let calls = increments(&mut batch, 2);
    let mut replies = batch.run_async(&mut con).await;
    for call in &calls {
        assert_refused_load(&replies.take(call).unwrap_err(), "batch_incr");
    }
    assert_eq!(
        redis::cmd("GET")
            .arg(COUNTER)
            .query_async::<i64>(&mut con)
            .await
            .unwrap(),
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_cluster_a_one_slot_batch_runs_on_its_node_and_a_sync_connection_refuses_it() {
    let cluster = tokio::task::block_in_place(|| crate::cluster_server::RedisCluster::start(3, 0));
    let mut con = cluster.client().get_async_connection().await.unwrap();
    let counter = "{batch:7}:counter";
    let mut batch = Batch::atomic();
    let first = batch.add(&batch_incr(counter)).unwrap();
    let halfway = batch.add(&batch_incr_then_fail(counter)).unwrap();
    let last = batch.add(&batch_incr(counter)).unwrap();
    let mut replies = batch.run_async(&mut con).await;
    assert_eq!(replies.take(&first).unwrap(), 1);
    let error = replies.take(&halfway).unwrap_err();
    assert_eq!(error.script(), "batch_incr_then_fail");
    assert_eq!(error.applied(), Applied::Maybe);
    assert_eq!(replies.take(&last).unwrap(), 3);

    // A sync cluster connection does not pipeline: nothing is sent.
    tokio::task::block_in_place(|| {
        let mut sync = cluster.connection();
        let mut replies = batch.run(&mut sync);
        let error = replies.take(&first).unwrap_err();
        assert_eq!(error.script(), "batch_incr");
        assert_eq!(error.applied(), Applied::No, "{error}");
        assert_eq!(counter_value(&mut sync, counter), 3);
    });
}

/// Why the batch exists: a plain `redis::Pipeline` with `evalsha_script`,
/// as the same user, fails as a whole with redis-rs's error, which names
/// no script, while a call whose script the server had cached ran.
#[test]
fn a_plain_pipeline_fails_unnamed_after_running_a_cached_call() {
    use redis_script::ScriptPipeline;

    let server = RedisServer::start();
    let mut con = without_script_load(&server);
    batch_incr::SCRIPT.load(&mut server.connection()).unwrap();
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&batch_incr(COUNTER)).unwrap();
    let error = pipe.query::<(i64,)>(&mut con).unwrap_err();
    assert!(!error.to_string().contains("batch_incr"), "{error}");
    assert_eq!(counter_value(&mut con, COUNTER), 1);

    // The same call in a batch: its result, the load's refusal aside.
    let mut batch = Batch::new();
    let call = batch.add(&batch_incr(COUNTER)).unwrap();
    assert_eq!(batch.run(&mut con).take(&call).unwrap(), 2);
}

#[redis_script(file = "tests/lua/delete_keys.lua", keys = 1)]
fn batch_delete(#[variadic] keys: &[&str]) -> i64;

#[redis_script::redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn batch_add_stock(stock: &str, item: &str, amount: i64) -> i64;

#[test]
fn a_copy_of_a_batch_is_another_batch() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut original = Batch::new();
    let first = original.add(&batch_incr(COUNTER)).unwrap();
    let mut copy = original.clone();
    let copied_first = copy.add(&batch_incr(OTHER)).unwrap();
    // The copy holds both calls, the original one.
    assert_eq!((original.len(), copy.len()), (1, 2));
    let mut replies = copy.run(&mut con);
    // A handle of the original does not read the copy's replies, though it
    // names a position the copy has.
    let error = replies.take(&first).unwrap_err();
    assert_eq!(error.applied(), Applied::No, "{error}");
    assert!(error.to_string().contains("another batch"), "{error}");
    assert_eq!(replies.take(&copied_first).unwrap(), 1);
}

#[test]
fn prefixed_calls_and_key_lists_run_in_a_batch_on_their_own_keys() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let tenant = redis_script::KeyPrefix::new("tenant-9:").unwrap();
    for key in ["tenant-9:a", "tenant-9:b", "a"] {
        redis::cmd("SET").arg(key).arg(1).exec(&mut con).unwrap();
    }
    let mut batch = Batch::new();
    let counted = batch.add(&batch_incr(COUNTER).key_prefix(&tenant)).unwrap();
    let deleted = batch
        .add(&batch_delete(&["a", "b", "c"]).key_prefix(&tenant))
        .unwrap();
    let mut replies = batch.run(&mut con);
    assert_eq!(replies.take(&counted).unwrap(), 1);
    assert_eq!(replies.take(&deleted).unwrap(), 2);
    assert_eq!(counter_value(&mut con, &format!("tenant-9:{COUNTER}")), 1);
    assert_eq!(counter_value(&mut con, COUNTER), 0);
    // The unprefixed `a` is another tenant's: untouched.
    let kept: i64 = redis::cmd("EXISTS").arg("a").query(&mut con).unwrap();
    assert_eq!(kept, 1);
}

#[test]
fn a_function_call_whose_library_is_missing_is_not_applied_and_runs_once_loaded() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let stock = "batch:stock";
    let mut batch = Batch::new();
    let added = batch.add(&batch_add_stock(stock, "pen", 2)).unwrap();
    let counted = batch.add(&batch_incr(COUNTER)).unwrap();
    let mut replies = batch.run(&mut con);
    // No recovery inside a batch: the function call fails, named by its
    // binding and function, and ran nowhere; its neighbour ran.
    let error = replies.take(&added).unwrap_err();
    assert_eq!(error.script(), "batch_add_stock");
    assert_eq!(error.function(), Some("stock_add"));
    assert_eq!(error.applied(), Applied::No, "{error}");
    assert_eq!(replies.take(&counted).unwrap(), 1);
    let pens: Option<i64> = redis::cmd("HGET")
        .arg(stock)
        .arg("pen")
        .query(&mut con)
        .unwrap();
    assert_eq!(pens, None);

    batch_add_stock::LIBRARY.load(&mut con).unwrap();
    let mut replies = batch.run(&mut con);
    assert_eq!(replies.take(&added).unwrap(), 2);
    assert_eq!(replies.take(&counted).unwrap(), 2);
}

#[test]
fn check_slots_names_every_key_of_a_batch_across_slots_and_sends_nothing() {
    let mut batch = Batch::atomic();
    // Checking slots needs no handle.
    let _ = batch.add(&batch_incr("{user:1}:hits")).unwrap();
    let _ = batch
        .add(&batch_delete(&["{user:1}:a", "{user:1}:b"]))
        .unwrap();
    assert!(batch.check_slots().is_ok());
    let _ = batch.add(&batch_incr("{user:2}:hits")).unwrap();
    let error = batch.check_slots().unwrap_err();
    assert_eq!(error.class(), ErrorClass::CrossSlot);
    assert_eq!(error.applied(), Applied::No);
    let ErrorKind::CrossSlot { keys } = error.kind() else {
        panic!("not a cross-slot error: {error}");
    };
    let user_1 = redis_script::key_slot(b"{user:1}:hits");
    let user_2 = redis_script::key_slot(b"{user:2}:hits");
    assert_eq!(
        keys,
        &[
            ("{user:1}:hits".to_owned(), user_1),
            ("{user:1}:a".to_owned(), user_1),
            ("{user:1}:b".to_owned(), user_1),
            ("{user:2}:hits".to_owned(), user_2),
        ]
    );
}
