//! Bindings, Functions bindings and batches on fred's clients (feature
//! `fred`): calls and their replies on RESP2 and RESP3, NOSCRIPT and
//! missing-library recovery, errors naming the binding, batches plain and
//! atomic, a pool, and a cluster routed by each call's first key.

use std::collections::HashMap;

use redis_script::fred::clients::{Client, Pool};
use redis_script::fred::interfaces::ClientLike;
use redis_script::fred::types::config::{Config, ServerConfig};
use redis_script::fred::types::{Builder, RespVersion};
use redis_script::{Applied, Batch, ErrorClass, NoScriptFallback, redis_function, redis_script};

use crate::cluster_server::RedisCluster;
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn fred_incr(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn fred_incr_after_flush(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_then_fail.lua", keys = 1)]
fn fred_incr_then_fail(counter: &str) -> i64;

#[redis_script(file = "tests/lua/booleans.lua", keys = 0)]
fn fred_boolean(value: &str, lua_resp: u8) -> Option<String>;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn fred_number(number: &str, form: &str) -> i64;

#[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
fn fred_number_as_u8(number: &str, form: &str) -> u8;

#[redis_script(file = "tests/lua/strings.lua", keys = 0)]
fn fred_string(text: &[u8]) -> Vec<u8>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn fred_list(table: &str, lua_resp: u8) -> Vec<i64>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn fred_nested(table: &str, lua_resp: u8) -> Vec<Vec<i64>>;

#[redis_script(file = "tests/lua/tables.lua", keys = 0)]
fn fred_map(table: &str, lua_resp: u8) -> HashMap<String, i64>;

#[redis_script(file = "tests/lua/status.lua", keys = 0)]
fn fred_status(how: &str, text: &str) -> redis::Value;

#[redis_script(file = "tests/lua/nested_error.lua", keys = 1)]
fn fred_nested_error(key: &str) -> redis::Value;

#[redis_script(file = "tests/lua/errors.lua", keys = 0)]
fn fred_fail(how: &str) -> String;

#[redis_script(file = "tests/lua/set_and_tell_port.lua", keys = 1)]
fn fred_set_and_tell_port(key: &str, value: &str) -> i64;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn fred_add_stock(stock: &str, item: &str, amount: i64) -> i64;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_count",
    keys = 1
)]
fn fred_count_stock(stock: &str, item: &str) -> i64;

/// A connected fred client of `server`, speaking `version`.
async fn client(server: &RedisServer, version: RespVersion) -> Client {
    let mut config = Config::from_url(&server.url()).unwrap();
    config.version = version;
    let client = Builder::from_config(config).build().unwrap();
    client.init().await.unwrap();
    client
}

/// A connected fred client of the whole `cluster`.
async fn cluster_client(cluster: &RedisCluster) -> Client {
    let hosts = cluster
        .primaries()
        .iter()
        .map(|node| ("127.0.0.1".to_owned(), node.port()))
        .collect();
    let config = Config {
        server: ServerConfig::new_clustered(hosts),
        ..Config::default()
    };
    let client = Builder::from_config(config).build().unwrap();
    client.init().await.unwrap();
    client
}

fn flush(server: &RedisServer, what: &str) {
    let mut con = server.connection();
    redis::cmd(what).arg("FLUSH").exec(&mut con).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_convert_as_on_redis_rs_on_resp2_and_resp3() {
    let server = tokio::task::block_in_place(RedisServer::start);
    for version in [RespVersion::RESP2, RespVersion::RESP3] {
        let client = client(&server, version.clone()).await;
        let nil = fred_boolean("nil", 2).invoke_fred(&client).await;
        assert_eq!(nil.unwrap(), None, "{version:?}");
        // Lua false: a null, or a RESP3 boolean after `redis.setresp(3)`.
        let lua_resp = if version == RespVersion::RESP3 { 3 } else { 2 };
        let lua_false = fred_boolean("false", lua_resp).invoke_fred(&client).await;
        assert_eq!(lua_false.unwrap(), None, "{version:?}");
        assert_eq!(
            fred_number("-42", "number")
                .invoke_fred(&client)
                .await
                .unwrap(),
            -42
        );
        let bytes = b"not \xff utf-8\0".as_slice();
        assert_eq!(
            fred_string(bytes).invoke_fred(&client).await.unwrap(),
            bytes
        );
        assert_eq!(
            fred_list("list", 2).invoke_fred(&client).await.unwrap(),
            [1, 2, 3]
        );
        assert_eq!(
            fred_nested("nested", 2).invoke_fred(&client).await.unwrap(),
            [vec![1, 2], vec![3], vec![]]
        );
        let map = fred_map("map", 3).invoke_fred(&client).await.unwrap();
        assert_eq!(
            map,
            HashMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)])
        );
        // A status reply, and an error inside a table, as redis-rs reads them.
        let status = fred_status("status_reply", "OK").invoke_fred(&client).await;
        assert_eq!(status.unwrap(), redis::Value::Okay);
        let nested = fred_nested_error("fred:nested")
            .invoke_fred(&client)
            .await
            .unwrap();
        let redis::Value::Array(items) = nested else {
            panic!("not an array: {nested:?}");
        };
        assert_eq!(items[0], redis::Value::Int(1));
        let redis::Value::ServerError(inner) = &items[1] else {
            panic!("not an error: {:?}", items[1]);
        };
        assert_eq!(inner.code(), "ERR", "{version:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_recovers_once_after_script_flush_with_either_fallback() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let client = client(&server, RespVersion::RESP2).await;
    assert_eq!(
        fred_incr_after_flush("fred:c")
            .invoke_fred(&client)
            .await
            .unwrap(),
        1
    );
    let mut expected = 1;
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        tokio::task::block_in_place(|| flush(&server, "SCRIPT"));
        let before = fred_incr_after_flush::SCRIPT.stats();
        let call = fred_incr_after_flush("fred:c").on_noscript(fallback);
        expected += 1;
        assert_eq!(
            call.invoke_fred(&client).await.unwrap(),
            expected,
            "{fallback:?}"
        );
        let stats = fred_incr_after_flush::SCRIPT.stats().since(&before);
        assert_eq!(
            (stats.calls(), stats.recoveries(), stats.errors()),
            (1, 1, 0)
        );
        // Recovered: the next call finds the script.
        expected += 1;
        assert_eq!(call.invoke_fred(&client).await.unwrap(), expected);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_function_call_loads_its_missing_library_once() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let client = client(&server, RespVersion::RESP3).await;
    for _ in 0..2 {
        // No library on the server: FCALL, FUNCTION LOAD REPLACE, FCALL.
        tokio::task::block_in_place(|| flush(&server, "FUNCTION"));
        let before = fred_add_stock::SCRIPT.stats();
        let added = fred_add_stock("fred:stock", "apple", 3)
            .invoke_fred(&client)
            .await;
        assert_eq!(added.unwrap(), 3);
        let stats = fred_add_stock::SCRIPT.stats().since(&before);
        assert_eq!((stats.calls(), stats.recoveries()), (1, 1));
        // FCALL_RO of a `no-writes` function, the library now there.
        let count = fred_count_stock("fred:stock", "apple")
            .invoke_fred(&client)
            .await;
        assert_eq!(count.unwrap(), 3);
        tokio::task::block_in_place(|| {
            redis::cmd("DEL")
                .arg("fred:stock")
                .exec(&mut server.connection())
                .unwrap();
        });
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_name_the_binding_and_say_whether_the_call_ran() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let client = client(&server, RespVersion::RESP2).await;

    let error = fred_fail("error_reply")
        .invoke_fred(&client)
        .await
        .unwrap_err();
    assert_eq!(error.script(), "fred_fail");
    assert_eq!(error.file(), "tests/lua/errors.lua");
    assert_eq!(error.code(), Some("MYCODE"), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("script `fred_fail` (tests/lua/errors.lua): "),
        "{error}"
    );
    assert_eq!(error.applied(), Applied::Maybe);

    let error = fred_fail("error").invoke_fred(&client).await.unwrap_err();
    assert_eq!(error.code(), Some("ERR"), "{error}");

    // A write, then a failure: the counter moved, and `applied` says it may have.
    let error = fred_incr_then_fail("fred:half")
        .invoke_fred(&client)
        .await
        .unwrap_err();
    assert_eq!(
        (error.code(), error.applied()),
        (Some("HALFWAY"), Applied::Maybe)
    );

    // WRONGTYPE from the script's own redis.call.
    tokio::task::block_in_place(|| {
        redis::cmd("HSET")
            .arg(&["fred:hash", "f", "v"])
            .exec(&mut server.connection())
            .unwrap();
    });
    let error = fred_incr("fred:hash")
        .invoke_fred(&client)
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some("WRONGTYPE"), "{error}");
    assert_eq!(error.script(), "fred_incr");

    // A reply that does not fit: the call ran.
    let error = fred_number_as_u8("300", "number")
        .invoke_fred(&client)
        .await
        .unwrap_err();
    assert_eq!(
        (error.class(), error.applied()),
        (ErrorClass::Reply, Applied::Yes)
    );

    // A server that went away: a connection error (or, bounded by the
    // client's command timeout, a timeout), which may have run.
    let bounded = Builder::from_config(Config::from_url(&server.url()).unwrap())
        .with_connection_config(|config| config.max_command_attempts = 1)
        .with_performance_config(|config| {
            config.default_command_timeout = std::time::Duration::from_secs(2);
        })
        .build()
        .unwrap();
    bounded.init().await.unwrap();
    tokio::task::block_in_place(|| drop(server));
    let error = fred_incr("fred:gone")
        .invoke_fred(&bounded)
        .await
        .unwrap_err();
    assert_eq!(error.script(), "fred_incr");
    assert_eq!(error.applied(), Applied::Maybe, "{error}");
    assert_eq!(error.code(), None, "{error}");
    assert!(
        matches!(error.class(), ErrorClass::Connection | ErrorClass::Timeout),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_give_each_call_its_result_plain_and_atomic() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let client = client(&server, RespVersion::RESP2).await;
    tokio::task::block_in_place(|| flush(&server, "SCRIPT"));

    let mut batch = Batch::new();
    let first = batch.add(&fred_incr("fred:batch")).unwrap();
    let failed = batch.add(&fred_fail("error_reply")).unwrap();
    let second = batch.add(&fred_incr("fred:batch")).unwrap();
    let list = batch.add(&fred_list("list", 2)).unwrap();
    let mut replies = batch.run_fred(&client).await;
    assert_eq!(replies.take(&first).unwrap(), 1);
    let error = replies.take(&failed).unwrap_err();
    assert_eq!(
        (error.script(), error.code()),
        ("fred_fail", Some("MYCODE"))
    );
    assert_eq!(replies.take(&second).unwrap(), 2);
    assert_eq!(replies.take(&list).unwrap(), [1, 2, 3]);

    // Atomic, every call succeeding: each its own reply.
    let mut atomic = Batch::atomic();
    let first = atomic.add(&fred_incr("fred:atomic")).unwrap();
    let second = atomic.add(&fred_incr("fred:atomic")).unwrap();
    let mut replies = atomic.run_fred(&client).await;
    assert_eq!(replies.take(&first).unwrap(), 1);
    assert_eq!(replies.take(&second).unwrap(), 2);

    // Atomic with a failing call: fred reads EXEC's replies whole, so
    // every call fails as having run.
    let mut atomic = Batch::atomic();
    let ran = atomic.add(&fred_incr("fred:atomic")).unwrap();
    let failed = atomic.add(&fred_fail("error_reply")).unwrap();
    let mut replies = atomic.run_fred(&client).await;
    let error = replies.take(&ran).unwrap_err();
    assert_eq!(
        (error.script(), error.applied()),
        ("fred_incr", Applied::Maybe)
    );
    assert!(error.to_string().contains("MYCODE"), "{error}");
    assert_eq!(replies.take(&failed).unwrap_err().applied(), Applied::Maybe);
    let counter: i64 = tokio::task::block_in_place(|| {
        redis::cmd("GET")
            .arg("fred:atomic")
            .query(&mut server.connection())
            .unwrap()
    });
    assert_eq!(counter, 3, "the transaction ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_and_batches_run_on_a_pool() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let pool: Pool = Builder::from_config(Config::from_url(&server.url()).unwrap())
        .build_pool(3)
        .unwrap();
    pool.init().await.unwrap();
    for expected in 1..=4 {
        assert_eq!(
            fred_incr("fred:pool").invoke_fred(&pool).await.unwrap(),
            expected
        );
    }
    let mut batch = Batch::new();
    let call = batch.add(&fred_incr("fred:pool")).unwrap();
    assert_eq!(batch.run_fred(&pool).await.take(&call).unwrap(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_calls_run_on_the_node_of_their_first_key_and_recover_there() {
    let cluster = tokio::task::block_in_place(|| RedisCluster::start(3, 0));
    let client = cluster_client(&cluster).await;
    let keys =
        tokio::task::block_in_place(|| cluster.one_key_per_primary(|n| format!("fred:key:{n}")));
    for fallback in [NoScriptFallback::Eval, NoScriptFallback::Load] {
        for key in &keys {
            let port = fred_set_and_tell_port(key, "v")
                .on_noscript(fallback)
                .invoke_fred(&client)
                .await
                .unwrap();
            let primary = tokio::task::block_in_place(|| cluster.primary_for(key).port());
            assert_eq!(port, i64::from(primary), "{key}");
        }
        // Every node loses its scripts and libraries: each call recovers
        // on its own node.
        tokio::task::block_in_place(|| {
            for node in cluster.primaries() {
                flush(node, "SCRIPT");
                flush(node, "FUNCTION");
            }
        });
        for key in &keys {
            let port = fred_set_and_tell_port(key, "w")
                .on_noscript(fallback)
                .invoke_fred(&client)
                .await
                .unwrap();
            let primary = tokio::task::block_in_place(|| cluster.primary_for(key).port());
            assert_eq!(port, i64::from(primary), "{key}");
            // The same slot as `key`, so the same node.
            let stock = format!("{{{key}}}:stock");
            let added = fred_add_stock(&stock, "pear", 2).invoke_fred(&client).await;
            assert!(added.unwrap() >= 2, "{key}");
        }
    }
    // A batch whose keys share a slot runs on that slot's node.
    let tagged = ["{fred}:a", "{fred}:b"];
    let mut batch = Batch::atomic();
    let calls: Vec<_> = tagged
        .iter()
        .map(|key| batch.add(&fred_set_and_tell_port(key, "b")).unwrap())
        .collect();
    batch.check_slots().unwrap();
    let mut replies = batch.run_fred(&client).await;
    let primary = tokio::task::block_in_place(|| cluster.primary_for(tagged[0]).port());
    for call in &calls {
        assert_eq!(replies.take(call).unwrap(), i64::from(primary));
    }
}
