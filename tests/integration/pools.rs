//! Pooled connections: redis-rs's own r2d2 integration (sync `Connection`),
//! deadpool-redis and bb8-redis (`MultiplexedConnection`, with `redis-1`)
//! run bindings like any connection.

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

/// deadpool-redis and bb8-redis are built on redis-rs 1.x: with `redis-2`
/// there is neither to test (no release of either is built on 2.0 yet).
#[cfg(not(feature = "redis-2"))]
mod async_pools {
    use std::future::Future;
    use std::ops::DerefMut;
    use std::pin::Pin;
    use std::time::Duration;

    use redis::aio::MultiplexedConnection;
    use redis_script_test::redis::RedisError;

    use super::*;

    /// Generous bounds instead of redis-rs's defaults (1 s to connect, 500 ms
    /// per reply), which a loaded 2-core machine running other tests can exceed;
    /// a call that timed out may have been applied, which would break the count.
    const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
    const REPLY_TIMEOUT: Duration = Duration::from_secs(60);
    /// Tasks sharing one pool, each checking a connection out per call.
    const TASKS: usize = 10;

    /// A pool of multiplexed connections, as a test checks them out.
    trait AsyncPool: Clone + Send + 'static {
        /// A checked-out connection, which goes back to the pool on drop.
        type Pooled: DerefMut<Target = MultiplexedConnection> + Send;

        fn checkout(&self) -> impl Future<Output = Self::Pooled> + Send;
    }

    impl AsyncPool for deadpool_redis::Pool {
        type Pooled = deadpool_redis::Connection;

        async fn checkout(&self) -> Self::Pooled {
            self.get().await.unwrap()
        }
    }

    type Bb8Pool = bb8_redis::bb8::Pool<bb8_redis::RedisConnectionManager>;

    impl AsyncPool for Bb8Pool {
        type Pooled = bb8_redis::bb8::PooledConnection<'static, bb8_redis::RedisConnectionManager>;

        async fn checkout(&self) -> Self::Pooled {
            self.get_owned().await.unwrap()
        }
    }

    fn deadpool(server: &RedisServer) -> deadpool_redis::Pool {
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(REPLY_TIMEOUT));
        let manager = deadpool_redis::Manager::new_with_config(server.url(), config).unwrap();
        deadpool_redis::Pool::builder(manager)
            .max_size(POOL_SIZE as usize)
            .runtime(deadpool_redis::Runtime::Tokio1)
            .build()
            .unwrap()
    }

    /// bb8-redis's manager connects with redis-rs's defaults and takes no
    /// configuration: each new connection gets [`REPLY_TIMEOUT`] as it
    /// joins the pool.
    #[derive(Debug)]
    struct ReplyTimeout;

    impl bb8_redis::bb8::CustomizeConnection<MultiplexedConnection, RedisError> for ReplyTimeout {
        fn on_acquire<'a>(
            &'a self,
            connection: &'a mut MultiplexedConnection,
        ) -> Pin<Box<dyn Future<Output = Result<(), RedisError>> + Send + 'a>> {
            connection.set_response_timeout(REPLY_TIMEOUT);
            Box::pin(async { Ok(()) })
        }
    }

    async fn bb8(server: &RedisServer) -> Bb8Pool {
        let manager = bb8_redis::RedisConnectionManager::new(server.url()).unwrap();
        bb8_redis::bb8::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(CONNECT_TIMEOUT)
            .connection_customizer(Box::new(ReplyTimeout))
            .build(manager)
            .await
            .unwrap()
    }

    /// [`TASKS`] tasks share `pool`, each checking a connection out per
    /// call: the counter the script keeps equals the calls that succeeded
    /// (`TASKS` × [`CALLS_PER_WORKER`]), each counted once.
    async fn tasks_count_every_call_once(server: &RedisServer, pool: impl AsyncPool) {
        let handles: Vec<_> = (0..TASKS)
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
        assert_eq!(replies.len(), TASKS * CALLS_PER_WORKER);
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
    async fn deadpool_connections_shared_by_tasks_count_every_call_once() {
        let server = RedisServer::start();
        tasks_count_every_call_once(&server, deadpool(&server)).await;
    }

    #[tokio::test(flavor = "current_thread")]
    async fn deadpool_connection_recovers_from_a_flushed_script_cache() {
        let server = RedisServer::start();
        pooled_connection_recovers_from_a_flush(&server, deadpool(&server)).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bb8_connections_shared_by_tasks_count_every_call_once() {
        let server = RedisServer::start();
        tasks_count_every_call_once(&server, bb8(&server).await).await;
    }

    #[tokio::test(flavor = "current_thread")]
    async fn bb8_connection_recovers_from_a_flushed_script_cache() {
        let server = RedisServer::start();
        pooled_connection_recovers_from_a_flush(&server, bb8(&server).await).await;
    }
}
