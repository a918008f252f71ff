//! The link-time registry of bindings and `load_all`: every binding of the
//! test binary (its own, in modules and function bodies, and the recipes'
//! of the facade crate) is listed, and `load_all` puts each distinct script
//! on a server, or on every node of a cluster, in one call.

use std::collections::BTreeSet;

use redis::ConnectionLike;
use redis_script::{Script, redis_script, registry};

use crate::cluster_server::RedisCluster;
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::server::RedisServer;

/// Two bindings of one file: one script.
#[redis_script(file = "tests/lua/status.lua", keys = 0)]
fn registered_status(variant: &str, text: &str) -> String;

#[redis_script(file = "tests/lua/status.lua", keys = 0)]
fn registered_status_again(variant: &str, text: &str) -> String;

mod nested {
    use redis_script::redis_script;

    #[redis_script(file = "tests/lua/numbers.lua", keys = 0)]
    pub fn registered_in_a_module(number: &str, variant: &str) -> redis::Value;
}

fn listed(script: &'static Script) -> bool {
    registry::scripts().any(|listed| std::ptr::eq(listed, script))
}

/// The scripts of the registry, without the functions (which are loaded as
/// libraries).
fn eval_scripts() -> impl Iterator<Item = &'static Script> {
    registry::scripts().filter(|script| script.library().is_none())
}

/// Distinct SHA1s of every listed script.
fn distinct_sha1s() -> BTreeSet<&'static str> {
    eval_scripts().map(Script::sha1).collect()
}

fn all_cached(con: &mut dyn ConnectionLike) -> bool {
    eval_scripts().all(|script| script_cached(con, script))
}

#[test]
fn every_binding_of_every_crate_is_listed_with_its_path() {
    #[redis_script(file = "tests/lua/echo_argv.lua", keys = 0)]
    fn registered_in_a_function(word: &str) -> Vec<String>;

    assert!(listed(&registered_status::SCRIPT));
    assert!(listed(&registered_status_again::SCRIPT));
    assert!(listed(&nested::registered_in_a_module::SCRIPT));
    assert!(listed(&registered_in_a_function::SCRIPT));
    assert_eq!(
        nested::registered_in_a_module::SCRIPT.binding_path(),
        "integration::registry::nested::registered_in_a_module"
    );
    // The facade's own bindings, from another crate, are in the same list.
    let recipes: Vec<&Script> = redis_script::recipes::scripts().collect();
    assert!(recipes.iter().all(|script| listed(script)));
    assert!(
        recipes
            .iter()
            .any(|script| script.name() == "acquire_lock_script")
    );
    assert!(
        recipes
            .iter()
            .all(|script| script.binding_path().starts_with("redis_script::recipes::"))
    );
    // Each binding once, in order of their paths.
    let paths: Vec<&str> = registry::scripts().map(Script::binding_path).collect();
    assert!(paths.windows(2).all(|pair| pair[0] < pair[1]), "{paths:?}");
}

#[test]
fn load_all_loads_each_distinct_script_once_in_one_round_trip() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert!(!script_cached(&mut con, &registered_status::SCRIPT));
    reset_stats(&mut con);
    let loaded = redis_script::load_all(&mut con).unwrap();
    // Two bindings share status.lua: it is loaded, and reported, once.
    let reported: Vec<&str> = loaded.scripts.iter().map(|script| script.sha1()).collect();
    let distinct = distinct_sha1s();
    assert_eq!(reported.len(), distinct.len());
    assert_eq!(reported.iter().copied().collect::<BTreeSet<_>>(), distinct);
    assert_eq!(
        command_calls(&mut con, "script|load"),
        distinct.len() as u64
    );
    assert!(all_cached(&mut con));
    // The libraries of the functions too.
    let stock = loaded
        .libraries
        .iter()
        .find(|library| library.name() == "stock")
        .unwrap();
    assert_eq!(
        stock.status(&mut con).unwrap(),
        redis_script::LibraryStatus::Current
    );
    // Loaded with SCRIPT LOAD, so the calls find them: EVALSHA alone.
    reset_stats(&mut con);
    assert_eq!(
        registered_status_again("status_reply", "OK")
            .invoke(&mut con)
            .unwrap(),
        "OK"
    );
    assert_eq!(command_calls(&mut con, "eval"), 0);
    // Again after a flush.
    flush_scripts(&mut con);
    assert!(!all_cached(&mut con));
    redis_script::load_all(&mut con).unwrap();
    assert!(all_cached(&mut con));
}

#[test]
fn load_all_reports_a_refused_load_with_the_script_it_concerns() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // A server that refuses SCRIPT LOAD, as some proxies do.
    redis::cmd("ACL")
        .arg("SETUSER")
        .arg("default")
        .arg("-script|load")
        .exec(&mut con)
        .unwrap();
    let error = redis_script::load_all(&mut con).unwrap_err();
    assert_eq!(error.applied(), redis_script::Applied::No);
    assert_eq!(error.code(), Some("NOPERM"), "{error}");
    assert!(registry::scripts().any(|script| script.name() == error.script()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_all_async_loads_every_script() {
    let server = tokio::task::block_in_place(RedisServer::start);
    let mut con = server.multiplexed().await;
    let loaded = redis_script::load_all_async(&mut con).await.unwrap();
    assert_eq!(loaded.scripts.len(), distinct_sha1s().len());
    tokio::task::block_in_place(|| assert!(all_cached(&mut server.connection())));
}

#[test]
fn load_all_on_a_cluster_loads_on_every_node() {
    let cluster = RedisCluster::start(3, 1);
    let mut con = cluster.connection();
    let loaded = redis_script::load_all(&mut con).unwrap();
    assert_eq!(loaded.scripts.len(), distinct_sha1s().len());
    for node in cluster.nodes() {
        assert!(all_cached(&mut node.connection()), "node {}", node.port());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_all_async_on_a_cluster_loads_on_every_node() {
    let cluster = tokio::task::block_in_place(|| RedisCluster::start(3, 0));
    let mut con = cluster.client().get_async_connection().await.unwrap();
    redis_script::load_all_async(&mut con).await.unwrap();
    tokio::task::block_in_place(|| {
        for node in cluster.nodes() {
            assert!(all_cached(&mut node.connection()), "node {}", node.port());
        }
    });
}
