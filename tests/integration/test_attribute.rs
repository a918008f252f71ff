//! `#[redis_script::test]` on this crate's own tests: what each argument
//! does and what each parameter gets, on the server of the run (and on
//! every server of `REDIS_SCRIPT_SERVERS`).

use std::time::Duration;

use redis_script_test::{RedisCluster, RedisServer, Replicated, Setup};

#[redis_script::redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn incr_counter(key: &str) -> i64;

fn cached(con: &mut impl redis::ConnectionLike) -> bool {
    let cached: Vec<bool> = redis::cmd("SCRIPT")
        .arg("EXISTS")
        .arg(incr_counter::SCRIPT.sha1())
        .query(con)
        .unwrap();
    cached == [true]
}

#[redis_script::test]
fn a_sync_test_gets_a_connection_to_a_server_of_its_own(con: &mut redis::Connection) {
    // Nobody else writes here: the keyspace starts empty.
    let size: i64 = redis::cmd("DBSIZE").query(con).unwrap();
    assert_eq!(size, 0);
    assert_eq!(incr_counter("hits").invoke(con).unwrap(), 1);
    assert_eq!(incr_counter("hits").invoke(con).unwrap(), 2);
}

#[redis_script::test]
fn every_parameter_reaches_the_same_server(
    server: &RedisServer,
    setup: &Setup,
    client: redis::Client,
    mut con: redis::Connection,
    pool: r2d2::Pool<redis::Client>,
) -> Result<(), redis_script::Error> {
    incr_counter("n").invoke(&mut con)?;
    incr_counter("n").invoke(&mut client.get_connection().unwrap())?;
    incr_counter("n").invoke(&mut *pool.get().unwrap())?;
    let n: i64 = redis::cmd("GET")
        .arg("n")
        .query(&mut server.connection())
        .unwrap();
    assert_eq!(n, 3);
    assert_eq!(setup.server().map(RedisServer::port), Some(server.port()));
    assert!(setup.cluster().is_none() && setup.replicated().is_none());
    Ok(())
}

#[redis_script::test]
async fn an_async_test_gets_async_connections(
    server: &RedisServer,
    mut multiplexed: redis::aio::MultiplexedConnection,
    mut manager: redis::aio::ConnectionManager,
) {
    assert_eq!(
        incr_counter("n")
            .invoke_async(&mut multiplexed)
            .await
            .unwrap(),
        1
    );
    // Recovery through a flush: the binding sends EVALSHA, meets NOSCRIPT,
    // and sends the script with EVAL.
    let mut admin = server.connection();
    assert!(cached(&mut admin));
    server.flush_scripts();
    assert!(!cached(&mut admin));
    assert_eq!(
        incr_counter("n").invoke_async(&mut manager).await.unwrap(),
        2
    );
    assert!(cached(&mut admin));
}

#[redis_script::test]
fn without_load_all_the_script_cache_starts_empty(con: &mut redis::Connection) {
    assert!(!cached(con));
}

#[redis_script::test(load_all)]
fn load_all_loads_every_binding_first(con: &mut redis::Connection) {
    assert!(cached(con));
}

#[redis_script::test(fixtures("tests/fixtures/accounts.redis", "tests/fixtures/audit.lua"))]
fn fixtures_run_first_in_order(con: &mut redis::Connection) {
    let owner: String = redis::cmd("HGET")
        .arg("account:bob")
        .arg("owner")
        .query(con)
        .unwrap();
    assert_eq!(owner, "Bob 'B' Jones");
    let name: String = redis::cmd("GET").arg("ledger:name").query(con).unwrap();
    assert_eq!(name, "main ledger");
    let audit: Vec<String> = redis::cmd("LRANGE")
        .arg("audit")
        .arg(0)
        .arg(-1)
        .query(con)
        .unwrap();
    assert_eq!(audit, ["opened"]);
}

#[redis_script::test(cluster, fixtures("tests/fixtures/accounts.redis"))]
fn a_cluster_test_gets_a_cluster_connection(
    cluster: &RedisCluster,
    con: &mut redis::cluster::ClusterConnection,
) {
    assert_eq!(cluster.primaries().len(), 3);
    assert!(cluster.replicas().is_empty());
    // The fixture's keys went to their own nodes.
    let balance: i64 = redis::cmd("HGET")
        .arg("account:ada")
        .arg("balance")
        .query(con)
        .unwrap();
    assert_eq!(balance, 100);
    for key in cluster.one_key_per_primary(|i| format!("counter:{i}")) {
        assert_eq!(incr_counter(&key).invoke(con).unwrap(), 1);
    }
}

#[redis_script::test(cluster(replicas = 1))]
async fn an_async_cluster_test(
    cluster: &RedisCluster,
    mut con: redis::cluster_async::ClusterConnection,
) {
    assert_eq!(cluster.replicas().len(), 3);
    assert_eq!(
        incr_counter("{a}n").invoke_async(&mut con).await.unwrap(),
        1
    );
}

#[redis_script::test(replica)]
fn a_replica_test_can_fail_over(pair: &Replicated, con: &mut redis::Connection) {
    let first_primary = pair.primary().port();
    assert_eq!(incr_counter("n").invoke(con).unwrap(), 1);
    pair.failover();
    assert_eq!(pair.replica().port(), first_primary);
    // The data moved with the role, and the new primary takes writes.
    let mut promoted = pair.primary().connection();
    assert_eq!(incr_counter("n").invoke(&mut promoted).unwrap(), 2);
}

#[redis_script::test]
fn the_fault_helpers_do_what_they_say(server: &RedisServer, con: &mut redis::Connection) {
    incr_counter("n").invoke(con).unwrap();

    // kill_clients: this connection is closed by the server.
    assert!(server.kill_clients() >= 1);
    assert!(redis::cmd("PING").query::<String>(con).is_err());

    // restart: same port, nothing kept.
    let port = server.port();
    server.restart();
    assert_eq!(server.port(), port);
    let mut fresh = server.connection();
    let n: Option<i64> = redis::cmd("GET").arg("n").query(&mut fresh).unwrap();
    assert_eq!(n, None);

    // pause: a command sent meanwhile is answered after the pause.
    server.pause(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let _: String = redis::cmd("PING").query(&mut fresh).unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );

    // freeze: nothing answers until thaw.
    fresh
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    server.freeze();
    let frozen = redis::cmd("PING").query::<String>(&mut fresh);
    server.thaw();
    assert!(frozen.is_err(), "{frozen:?}");
}

#[redis_script::test(timeout_secs = 1)]
#[should_panic(expected = "timed out after 1s; its servers were killed")]
fn a_test_that_outlives_its_timeout_fails(_con: &mut redis::Connection) {
    std::thread::sleep(Duration::from_secs(5));
}

#[redis_script::test]
#[should_panic(expected = "crashed by signal")]
fn a_server_that_crashes_mid_test_is_reported_with_its_log(server: &RedisServer) {
    // A segmentation fault from outside: the server logs its crash report
    // and exits, and nobody killed it through the handle.
    let signalled = std::process::Command::new("kill")
        .args(["-SEGV", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    let mut con = server.connection();
    let reply = redis::cmd("PING").query::<String>(&mut con);
    panic!("the server is gone: {reply:?}");
}
