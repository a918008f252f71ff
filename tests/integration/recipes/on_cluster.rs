//! Every recipe on a real local Redis Cluster, through a cluster connection,
//! with its keys spread over every primary where the recipe allows it, and
//! kept in one slot by the recipe's own hash tags where it needs that.

use std::time::Duration;

use redis::cluster::ClusterConnection;
use redis_script::key_slot;
use redis_script::recipes::autocomplete::{add_members, autocomplete_on_prefix};
use redis_script::recipes::dedup::Dedup;
use redis_script::recipes::leaderboard::{Leaderboard, Submitted};
use redis_script::recipes::lock::Lock;
use redis_script::recipes::marketplace::{self, inventory_key, list_item, purchase_item, user_key};
use redis_script::recipes::red_envelope::{Grab, RedEnvelopes};
use redis_script::recipes::semaphore::Semaphore;
use redis_script::recipes::sharded_list::{End, ShardedList};
use redis_script::recipes::status::{self, create_status, get_status};

use crate::cluster_server::RedisCluster;

const TTL: Duration = Duration::from_secs(30);

/// A three-primary cluster and a connection to it.
fn cluster() -> (RedisCluster, ClusterConnection) {
    let cluster = RedisCluster::start(3, 0);
    let con = cluster.connection();
    (cluster, con)
}

#[test]
fn locks_on_every_primary() {
    let (cluster, mut con) = cluster();
    for key in cluster.one_key_per_primary(|n| format!("lock:{n}")) {
        let lock = Lock::new(key, TTL);
        let held = lock.try_acquire(&mut con).unwrap().expect("a free lock");
        assert!(lock.try_acquire(&mut con).unwrap().is_none(), "held once");
        assert!(!lock.with_token("not the holder").release(&mut con).unwrap());
        assert!(held.extend(&mut con).unwrap());
        assert!(held.release(&mut con).unwrap());
        assert!(lock.try_acquire(&mut con).unwrap().is_some(), "free again");
    }
}

#[test]
fn semaphores_on_every_primary() {
    let (cluster, mut con) = cluster();
    for key in cluster.one_key_per_primary(|n| format!("semaphore:{n}")) {
        let semaphore = Semaphore::new(key, 2, TTL);
        let first = semaphore.try_acquire(&mut con).unwrap().expect("room");
        let second = semaphore.try_acquire(&mut con).unwrap().expect("room");
        assert!(semaphore.try_acquire(&mut con).unwrap().is_none(), "full");
        assert!(second.refresh(&mut con).unwrap());
        assert!(first.release(&mut con).unwrap());
        assert!(semaphore.try_acquire(&mut con).unwrap().is_some());
    }
}

#[test]
fn dedup_on_every_primary() {
    let (cluster, mut con) = cluster();
    let dedup = Dedup::new("seen:", TTL);
    for id in cluster.one_key_per_primary(|n| format!("{}{n}", dedup.prefix())) {
        let id = &id[dedup.prefix().len()..];
        assert!(dedup.claim(&mut con, id).unwrap(), "first claim of {id}");
        assert!(!dedup.claim(&mut con, id).unwrap(), "second claim of {id}");
    }
}

#[test]
fn leaderboards_on_every_primary() {
    let (cluster, mut con) = cluster();
    for key in cluster.one_key_per_primary(|n| format!("board:{n}")) {
        let board = Leaderboard::new(key, 2, 1000.0);
        assert!(matches!(
            board.submit(&mut con, "ada", 10.0).unwrap(),
            Submitted::Added { evicted: None }
        ));
        board.submit(&mut con, "bob", 20.0).unwrap();
        assert!(matches!(
            board.submit(&mut con, "cy", 30.0).unwrap(),
            Submitted::Added { evicted: Some(ref evicted) } if evicted == "ada"
        ));
        assert!(matches!(
            board.submit(&mut con, "dee", 15.0).unwrap(),
            Submitted::Rejected
        ));
        let top = board.top(&mut con).unwrap();
        assert_eq!(top, [("cy".to_owned(), 30.0), ("bob".to_owned(), 20.0)]);
    }
}

#[test]
fn autocomplete_on_every_primary() {
    let (cluster, mut con) = cluster();
    let members_prefix = redis_script::recipes::autocomplete::members_key("");
    for key in cluster.one_key_per_primary(|n| format!("{members_prefix}guild{n}")) {
        let guild = &key[members_prefix.len()..];
        add_members(&mut con, guild, &["jane", "jack", "jill", "bob"]).unwrap();
        assert_eq!(
            autocomplete_on_prefix(&mut con, guild, "ja").unwrap(),
            ["jack", "jane"]
        );
    }
}

#[test]
fn red_envelopes_on_every_primary_sync_and_async() {
    let (cluster, mut con) = cluster();
    let names = cluster.one_key_per_primary(|n| format!("campaign{n}"));
    for name in &names {
        let campaign = RedEnvelopes::new(name);
        campaign.load(&mut con, &[5, 7]).unwrap();
        assert!(matches!(
            campaign.grab(&mut con, "u1").unwrap(),
            Grab::Granted(_)
        ));
        assert!(matches!(
            campaign.grab(&mut con, "u1").unwrap(),
            Grab::AlreadyGranted(_)
        ));
    }
    // Ten concurrent users per campaign on one async cluster connection: one
    // envelope left in each, so exactly one of them is granted it.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let granted = runtime.block_on(async {
        let con = cluster.client().get_async_connection().await.unwrap();
        let tasks: Vec<_> = names
            .iter()
            .flat_map(|name| (0..10).map(move |user| (name.clone(), format!("user{user}"))))
            .map(|(name, user)| {
                let mut con = con.clone();
                tokio::spawn(async move {
                    let grab = RedEnvelopes::new(&name).grab_call(&user);
                    grab.invoke_async(&mut con).await.unwrap()
                })
            })
            .collect();
        let mut granted = 0;
        for task in tasks {
            granted += usize::from(matches!(task.await.unwrap(), Grab::Granted(_)));
        }
        granted
    });
    assert_eq!(granted, names.len());
    for name in &names {
        let campaign = RedEnvelopes::new(name);
        assert_eq!(campaign.pending(&mut con).unwrap(), 0);
        assert_eq!(campaign.consumed(&mut con).unwrap().len(), 2);
    }
}

#[test]
fn sharded_lists_on_every_primary() {
    let (cluster, mut con) = cluster();
    for name in cluster.one_key_per_primary(|n| format!("queue{n}")) {
        let list = ShardedList::new(name.as_str(), 3);
        // Every key of the list is in the slot of its name, shards included.
        let slot = key_slot(name.as_bytes());
        for key in [list.first_key(), list.last_key(), &list.shard_key(-4)] {
            assert_eq!(key_slot(key.as_bytes()), slot, "{key}");
        }
        let items: Vec<String> = (0..10).map(|n| format!("item{n}")).collect();
        assert_eq!(list.push(&mut con, End::Right, &items).unwrap(), 10);
        let mut popped = Vec::new();
        while let Some(item) = list.pop::<String>(&mut con, End::Left).unwrap() {
            popped.push(item);
        }
        assert_eq!(popped, items);
        // The blocking pop guards and blocks on the shard in one node too.
        list.push(&mut con, End::Right, &["late"]).unwrap();
        let item: Option<String> = list
            .blocking_pop(&mut con, End::Left, Duration::from_secs(2))
            .unwrap();
        assert_eq!(item.as_deref(), Some("late"));
        let timed_out: Option<String> = list
            .blocking_pop(&mut con, End::Right, Duration::ZERO)
            .unwrap();
        assert_eq!(timed_out, None);
    }
}

#[test]
fn the_marketplace_lives_in_one_slot() {
    let (cluster, mut con) = cluster();
    let keys = [
        marketplace::MARKET_KEY.to_owned(),
        user_key("17"),
        user_key("27"),
        inventory_key("17"),
        inventory_key("27"),
    ];
    let slot = key_slot(marketplace::MARKET_KEY.as_bytes());
    assert!(keys.iter().all(|key| key_slot(key.as_bytes()) == slot));

    redis::cmd("SADD")
        .arg(inventory_key("17"))
        .arg("sword")
        .exec(&mut con)
        .unwrap();
    redis::cmd("HSET")
        .arg(user_key("27"))
        .arg("funds")
        .arg(125)
        .exec(&mut con)
        .unwrap();
    assert!(list_item(&mut con, "sword", "17", 100).unwrap());
    assert!(purchase_item(&mut con, "27", "sword", "17").unwrap());
    assert!(!purchase_item(&mut con, "27", "sword", "17").unwrap());
    let owner = cluster.primary_for(marketplace::MARKET_KEY);
    let mut node = owner.connection();
    let funds: (u64, u64) = redis::pipe()
        .hget(user_key("17"), "funds")
        .hget(user_key("27"), "funds")
        .query(&mut node)
        .unwrap();
    assert_eq!(funds, (100, 25));
}

#[test]
fn status_messages_live_in_one_slot() {
    let (_cluster, mut con) = cluster();
    let slot = key_slot(status::STATUS_ID_KEY.as_bytes());
    assert_eq!(key_slot(status::user_key("7").as_bytes()), slot);
    assert_eq!(key_slot(status::status_key(12345).as_bytes()), slot);

    redis::cmd("HSET")
        .arg(status::user_key("7"))
        .arg("login")
        .arg("ada")
        .exec(&mut con)
        .unwrap();
    for expected in 1..=5 {
        let id = create_status(&mut con, "7", "hello", &[("mood", "happy")]).unwrap();
        assert_eq!(id, Some(expected));
    }
    let status = get_status(&mut con, 5).unwrap().expect("just written");
    assert_eq!(
        (status.login.as_str(), status.message.as_str()),
        ("ada", "hello")
    );
    assert_eq!(create_status(&mut con, "8", "no login", &[]).unwrap(), None);
}
