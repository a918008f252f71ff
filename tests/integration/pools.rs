//! Pooled connections: redis-rs's own r2d2 (sync `Connection`) and bb8
//! (`MultiplexedConnection`) integrations, and deadpool-redis, run bindings
//! like any connection.

use std::future::Future;
use std::ops::DerefMut;
use std::thread;

use redis::ConnectionLike;

use crate::counter::{assert_one_increment_per_success, counter_value, incr_counter};
use crate::invocation::{command_calls, flush_scripts, reset_stats, script_cached};
use crate::server::RedisServer;

/// Fewer connections than workers, so workers wait for and reuse connections.
const POOL_SIZE: u32 = 4;
const CALLS_PER_WORKER: usize = 200;

fn r2d2_pool(server: &RedisServer) -> r2d2::Pool<redis::Client> {
    r2d2::Pool::builder()
        .max_size(POOL_SIZE)
        .build(server.client())
        .unwrap()
}

async fn bb8_pool(server: &RedisServer) -> bb8::Pool<redis::Client> {
    bb8::Pool::builder()
        .max_size(POOL_SIZE)
        .build(server.client())
        .await
        .unwrap()
}

#[test]
fn r2d2_connections_shared_by_threads_count_every_call_once() {
    let server = RedisServer::start();
    let pool = r2d2_pool(&server);
    let workers = 6;
    let replies: Vec<i64> = thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut replies = Vec::with_capacity(CALLS_PER_WORKER);
                    for _ in 0..CALLS_PER_WORKER {
                        // One checkout per call: the connection goes back to the pool.
                        let mut con = pool.get().unwrap();
                        replies.push(incr_counter("pooled").invoke(&mut *con).unwrap());
                    }
                    replies
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap())
            .collect()
    });
    assert_eq!(replies.len(), workers * CALLS_PER_WORKER);
    let mut con = pool.get().unwrap();
    assert_eq!(counter_value(&mut *con, "pooled"), replies.len() as i64);
    assert_one_increment_per_success(replies);
}

/// An async pool, as the tests below use one: check a connection out.
trait AsyncPool: Clone + Send + Sync + 'static {
    type Pooled: DerefMut<Target: redis::aio::ConnectionLike + Send + Sized> + Send;
    fn checkout(&self) -> impl Future<Output = Self::Pooled> + Send;
}

impl AsyncPool for bb8::Pool<redis::Client> {
    type Pooled = bb8::PooledConnection<'static, redis::Client>;
    async fn checkout(&self) -> Self::Pooled {
        self.get_owned().await.unwrap()
    }
}

impl AsyncPool for deadpool_redis::Pool {
    type Pooled = deadpool_redis::Connection;
    async fn checkout(&self) -> Self::Pooled {
        self.get().await.unwrap()
    }
}

fn deadpool(server: &RedisServer) -> deadpool_redis::Pool {
    let mut config = deadpool_redis::Config::from_url(server.url());
    config.pool = Some(deadpool_redis::PoolConfig::new(POOL_SIZE as usize));
    config
        .create_pool(Some(deadpool_redis::Runtime::Tokio1))
        .unwrap()
}

/// Ten tasks share `pool`, each checking a connection out per call: the
/// counter the script keeps equals the calls that succeeded, each once.
async fn tasks_count_every_call_once(server: &RedisServer, pool: impl AsyncPool) {
    let tasks = 10;
    let handles: Vec<_> = (0..tasks)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut replies = Vec::with_capacity(CALLS_PER_WORKER);
                for _ in 0..CALLS_PER_WORKER {
                    let mut con = pool.checkout().await;
                    let reply = incr_counter("pooled").invoke_async(&mut *con).await;
                    replies.push(reply.unwrap());
                }
                replies
            })
        })
        .collect();
    let mut replies = Vec::new();
    for handle in handles {
        replies.extend(handle.await.unwrap());
    }
    assert_eq!(replies.len(), tasks * CALLS_PER_WORKER);
    let mut admin = server.connection();
    assert_eq!(counter_value(&mut admin, "pooled"), replies.len() as i64);
    assert_one_increment_per_success(replies);
}

/// A pooled connection recovers from a flushed script cache.
async fn pooled_connection_recovers_from_a_flush(server: &RedisServer, pool: impl AsyncPool) {
    let mut con = pool.checkout().await;
    let first = incr_counter("flushed")
        .invoke_async(&mut *con)
        .await
        .unwrap();
    let mut admin = server.connection();
    flush_and_reset(&mut admin);
    let second = incr_counter("flushed")
        .invoke_async(&mut *con)
        .await
        .unwrap();
    assert_recovered_after_flush(&mut admin, [first, second]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bb8_connections_shared_by_tasks_count_every_call_once() {
    let server = RedisServer::start();
    let pool = bb8_pool(&server).await;
    tasks_count_every_call_once(&server, pool).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadpool_connections_shared_by_tasks_count_every_call_once() {
    let server = RedisServer::start();
    tasks_count_every_call_once(&server, deadpool(&server)).await;
}

/// Empties the script cache and the command statistics, so that
/// [`assert_recovered_after_flush`] sees only what came after.
fn flush_and_reset(admin: &mut dyn ConnectionLike) {
    flush_scripts(admin);
    reset_stats(admin);
}

/// After `SCRIPT FLUSH` a pooled connection recovers from NOSCRIPT like any
/// other: the call succeeds, with exactly one EVAL, and caches the script.
fn assert_recovered_after_flush(admin: &mut dyn ConnectionLike, replies: [i64; 2]) {
    assert_eq!(replies, [1, 2]);
    assert_eq!(
        command_calls(admin, "eval"),
        1,
        "one recovery, after the flush"
    );
    assert!(script_cached(admin, &incr_counter::SCRIPT));
}

#[test]
fn r2d2_connection_recovers_from_a_flushed_script_cache() {
    let server = RedisServer::start();
    let pool = r2d2_pool(&server);
    let mut con = pool.get().unwrap();
    let first = incr_counter("flushed").invoke(&mut *con).unwrap();
    let mut admin = server.connection();
    flush_and_reset(&mut admin);
    let second = incr_counter("flushed").invoke(&mut *con).unwrap();
    assert_recovered_after_flush(&mut admin, [first, second]);
}

#[tokio::test(flavor = "current_thread")]
async fn bb8_connection_recovers_from_a_flushed_script_cache() {
    let server = RedisServer::start();
    let pool = bb8_pool(&server).await;
    pooled_connection_recovers_from_a_flush(&server, pool).await;
}

#[tokio::test(flavor = "current_thread")]
async fn deadpool_connection_recovers_from_a_flushed_script_cache() {
    let server = RedisServer::start();
    pooled_connection_recovers_from_a_flush(&server, deadpool(&server)).await;
}
