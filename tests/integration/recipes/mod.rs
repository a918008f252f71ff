//! The recipes' invariants under real concurrent clients.

mod autocomplete;
mod dedup;
mod leaderboard;
mod lock;
mod marketplace;
mod on_cluster;
mod prefixed;
mod red_envelope;
mod semaphore;
mod sharded_list;
mod status;

use redis::Connection;
use redis::aio::MultiplexedConnection;

use crate::server::RedisServer;

/// Every key with its DUMP, to compare whole databases.
fn dump_all(con: &mut Connection) -> Vec<(String, Vec<u8>)> {
    let mut keys: Vec<String> = redis::cmd("KEYS").arg("*").query(con).unwrap();
    keys.sort();
    keys.into_iter()
        .map(|key| {
            let dump: Vec<u8> = redis::cmd("DUMP").arg(&key).query(con).unwrap();
            (key, dump)
        })
        .collect()
}

/// An async connection of its own to `server`.
async fn multiplexed(server: &RedisServer) -> MultiplexedConnection {
    server.multiplexed().await
}
