//! The recipes on a Redis Cluster: locks, red envelopes and sharded lists
//! spread over every primary by their keys' slots, the marketplace kept in
//! one slot by its hash tag, and a call whose keys span slots refused with
//! every key and its slot.
//!
//! Run: `cargo run --example cluster` (starts a throwaway local cluster of
//! three primaries with the harness the tests use, unless
//! `REDIS_CLUSTER_NODES` names the nodes of one, comma-separated, e.g.
//! `redis://127.0.0.1:7000/,redis://127.0.0.1:7001/`).

// redis-rs as this crate is built on it (1.x, or 2.0 with `redis-2`).
use redis_script::redis;
use redis_script_test::cluster as cluster_server;

use std::time::Duration;

use redis::cluster::{ClusterClient, ClusterConnection};
use redis_script::recipes::lock::Lock;
use redis_script::recipes::marketplace::{self, inventory_key, list_item, purchase_item, user_key};
use redis_script::recipes::red_envelope::{Grab, RedEnvelopes};
use redis_script::recipes::sharded_list::{End, ShardedList};
use redis_script::{ErrorKind, key_slot, redis_script};

/// Replies its KEYS and ARGV; here only to show a call across slots.
#[redis_script(file = "tests/lua/echo_argv.lua", keys = 2)]
fn echo_keys(a: &str, b: &str) -> Vec<String>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_cluster, client) = cluster_from_env_or_start()?;
    let mut con = client.get_connection()?;

    println!("locks: each in the slot of its key, so spread over the nodes");
    for name in ["lock:invoices", "lock:payroll", "lock:backups"] {
        let lock = Lock::new(name, Duration::from_secs(30));
        let held = lock.try_acquire(&mut con)?.ok_or("the lock is taken")?;
        println!(
            "  {name} (slot {:>5}): taken on {}; released: {}",
            key_slot(name.as_bytes()),
            node_of(&mut con, name),
            held.release(&mut con)?
        );
    }

    println!("\nred envelopes: every key of a campaign carries its hash tag");
    for name in ["spring", "summer", "autumn"] {
        let campaign = RedEnvelopes::new(name);
        campaign.load(&mut con, &[88, 66])?;
        let grabs: Vec<String> = ["ann", "bo", "cy"]
            .iter()
            .map(|user| {
                Ok(match campaign.grab(&mut con, user)? {
                    Grab::Granted(envelope) => format!("{user}: {}", envelope.amount),
                    Grab::AlreadyGranted(_) => format!("{user}: had one"),
                    Grab::SoldOut => format!("{user}: sold out"),
                })
            })
            .collect::<Result<_, redis_script::Error>>()?;
        println!(
            "  {name} on {}: {}",
            node_of(&mut con, campaign.pending_key()),
            grabs.join(", ")
        );
    }

    println!("\nsharded lists: `{{name}}:first`, `{{name}}:last` and every shard in one slot");
    for name in ["jobs", "mail"] {
        let list = ShardedList::new(name, 2);
        list.push(&mut con, End::Right, &["a", "b", "c", "d", "e"])?;
        let first: Option<String> = list.pop(&mut con, End::Left)?;
        let last: Option<String> = list.blocking_pop(&mut con, End::Right, Duration::ZERO)?;
        println!(
            "  {name} on {}: popped {first:?} and {last:?} across 3 shards",
            node_of(&mut con, list.first_key())
        );
    }

    println!(
        "\nthe marketplace: a purchase moves funds and an item at once, so all in `{{market}}`"
    );
    redis::cmd("SADD")
        .arg(inventory_key("17"))
        .arg("sword")
        .exec(&mut con)?;
    redis::cmd("HSET")
        .arg(user_key("27"))
        .arg("funds")
        .arg(125)
        .exec(&mut con)?;
    list_item(&mut con, "sword", "17", 100)?;
    println!(
        "  user 27 buys the sword from user 17 on {}: {}",
        node_of(&mut con, marketplace::MARKET_KEY),
        purchase_item(&mut con, "27", "sword", "17")?
    );

    println!("\nkeys in two slots: refused, naming each key and its slot");
    let error = echo_keys("user:1", "user:2")
        .invoke(&mut con)
        .expect_err("a cluster refuses keys across slots");
    assert!(matches!(error.kind(), ErrorKind::CrossSlot { .. }));
    println!("  {error}");
    let tagged = echo_keys("{user:1}:a", "{user:1}:b").invoke(&mut con)?;
    println!("  with one hash tag instead: {tagged:?}");
    Ok(())
}

/// The cluster in `REDIS_CLUSTER_NODES`, or a throwaway local one (kept
/// alive by the returned guard).
fn cluster_from_env_or_start()
-> Result<(Option<cluster_server::RedisCluster>, ClusterClient), Box<dyn std::error::Error>> {
    match std::env::var("REDIS_CLUSTER_NODES") {
        Ok(nodes) if !nodes.is_empty() => {
            let client = ClusterClient::new(nodes.split(',').collect::<Vec<_>>())?;
            Ok((None, client))
        }
        _ => {
            println!("starting a local cluster of three primaries ...");
            let cluster = cluster_server::RedisCluster::start(3, 0);
            let client = cluster.client();
            Ok((Some(cluster), client))
        }
    }
}

/// The address of the primary serving `key`, as the cluster reports it.
fn node_of(con: &mut ClusterConnection, key: &str) -> String {
    match cluster_server::SlotMap::read(con).owner(key_slot(key.as_bytes())) {
        Some((host, port)) => format!("{host}:{port}"),
        None => "an unknown node".to_owned(),
    }
}
