//! Red envelopes: thousands of concurrent users over real connections, each
//! envelope granted at most once, each user at most once, and the consumed
//! list holding exactly the grants.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use redis::AsyncConnectionConfig;
use redis_script::recipes::red_envelope::{Envelope, Grab, RedEnvelopes};
use tokio::sync::Semaphore;

use super::dump_all;
use crate::server::RedisServer;

/// Connections open at once: below the fd and connect-backlog limits.
const MAX_CONNECTIONS: usize = 200;
/// Generous bounds instead of redis-rs's defaults (1 s to connect, 500 ms
/// per reply), which a loaded 2-core machine running other tests can exceed;
/// a grab that timed out may have been granted, which would break the count.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// Grabs once for every user in `users`, each on its own connection, at most
/// [`MAX_CONNECTIONS`] connected at once; the outcomes in the users' order.
fn grab_concurrently(server: &RedisServer, campaign: &RedEnvelopes, users: &[String]) -> Vec<Grab> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    let client = server.client();
    let config = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(REPLY_TIMEOUT));
    runtime.block_on(async {
        let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let tasks: Vec<_> = users
            .iter()
            .map(|user| {
                let (client, permits, config) = (client.clone(), permits.clone(), config.clone());
                let call = campaign.grab_call(user);
                tokio::spawn(async move {
                    let _permit = permits.acquire_owned().await.unwrap();
                    let mut con = client
                        .get_multiplexed_async_connection_with_config(&config)
                        .await
                        .unwrap();
                    call.invoke_async(&mut con).await.unwrap()
                })
            })
            .collect();
        let mut outcomes = Vec::with_capacity(tasks.len());
        for task in tasks {
            outcomes.push(task.await.unwrap());
        }
        outcomes
    })
}

#[test]
fn thousands_of_concurrent_users_share_the_envelopes_exactly() {
    const ENVELOPES: u64 = 1_000;
    const USERS: usize = 5_000;
    let server = RedisServer::start();
    let mut con = server.connection();
    let campaign = RedEnvelopes::new("festival");
    let amounts: Vec<u64> = (0..ENVELOPES).map(|i| 1 + (i * 37) % 500).collect();
    let loaded = campaign.load(&mut con, &amounts).unwrap();
    let loaded: HashMap<u64, u64> = loaded.iter().map(|e| (e.id, e.amount)).collect();
    assert_eq!(loaded.len(), ENVELOPES as usize);

    let users: Vec<String> = (0..USERS).map(|u| format!("user-{u}")).collect();
    let outcomes = grab_concurrently(&server, &campaign, &users);

    let mut granted: Vec<Envelope> = Vec::new();
    for (user, outcome) in users.iter().zip(outcomes) {
        match outcome {
            Grab::Granted(envelope) => {
                assert_eq!(envelope.user_id.as_deref(), Some(user.as_str()));
                assert_eq!(
                    loaded.get(&envelope.id),
                    Some(&envelope.amount),
                    "a loaded envelope"
                );
                granted.push(envelope);
            }
            Grab::SoldOut => {}
            Grab::AlreadyGranted(envelope) => {
                panic!("{user} grabbed once, got a repeat {envelope:?}")
            }
        }
    }
    assert_eq!(granted.len(), ENVELOPES.min(USERS as u64) as usize);
    let ids: HashSet<u64> = granted.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), granted.len(), "no envelope granted twice");
    let winners: HashSet<&str> = granted
        .iter()
        .filter_map(|e| e.user_id.as_deref())
        .collect();
    assert_eq!(winners.len(), granted.len(), "no user granted twice");
    assert_eq!(campaign.pending(&mut con).unwrap(), 0);

    // The persistence queue and the per-user grants hold exactly the grants.
    let by_id = |records: &[Envelope]| -> BTreeMap<u64, Envelope> {
        records.iter().map(|e| (e.id, e.clone())).collect()
    };
    let consumed = campaign.consumed(&mut con).unwrap();
    assert_eq!(consumed.len(), granted.len());
    assert_eq!(by_id(&consumed), by_id(&granted));
    let grants: HashMap<String, Envelope> = redis::cmd("HGETALL")
        .arg(campaign.grants_key())
        .query(&mut con)
        .unwrap();
    assert_eq!(grants.len(), granted.len());
    for envelope in &granted {
        assert_eq!(grants[envelope.user_id.as_deref().unwrap()], *envelope);
    }

    // Grabbing again answers the first grant, or sold out; nothing changes.
    let snapshot = dump_all(&mut con);
    let again = [
        users[0].clone(),
        users[USERS - 1].clone(),
        "latecomer".to_owned(),
    ];
    for user in &again {
        let expected = granted
            .iter()
            .find(|e| e.user_id.as_deref() == Some(user))
            .map_or(Grab::SoldOut, |e| Grab::AlreadyGranted(e.clone()));
        assert_eq!(campaign.grab(&mut con, user).unwrap(), expected);
    }
    assert_eq!(dump_all(&mut con), snapshot);
}

#[test]
fn one_user_grabbing_on_many_connections_at_once_gets_one_envelope() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let campaign = RedEnvelopes::new("dup");
    campaign.load(&mut con, &[10; 20]).unwrap();
    let users = vec!["greedy".to_owned(); 100];
    let outcomes = grab_concurrently(&server, &campaign, &users);

    let granted: Vec<&Envelope> = outcomes
        .iter()
        .filter_map(|o| match o {
            Grab::Granted(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(granted.len(), 1);
    for outcome in &outcomes {
        if let Grab::AlreadyGranted(envelope) = outcome {
            assert_eq!(envelope, granted[0]);
        } else {
            assert_eq!(outcome, &Grab::Granted(granted[0].clone()));
        }
    }
    assert_eq!(campaign.pending(&mut con).unwrap(), 19);
    assert_eq!(campaign.consumed(&mut con).unwrap(), [granted[0].clone()]);
}

#[test]
fn envelopes_are_granted_in_load_order_with_ids_continuing_across_loads() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let campaign = RedEnvelopes::new("order");
    let first = campaign.load(&mut con, &[5, 6]).unwrap();
    let second = campaign.load(&mut con, &[7]).unwrap();
    assert_eq!(campaign.load(&mut con, &[]).unwrap(), []);
    let ids: Vec<(u64, u64)> = first
        .iter()
        .chain(&second)
        .map(|e| (e.id, e.amount))
        .collect();
    assert_eq!(ids, [(1, 5), (2, 6), (3, 7)]);

    for (user, (id, amount)) in ["a", "b", "c"].into_iter().zip(ids) {
        let expected = Envelope {
            id,
            amount,
            user_id: Some(user.to_owned()),
        };
        assert_eq!(
            campaign.grab(&mut con, user).unwrap(),
            Grab::Granted(expected)
        );
    }
    // Persisting: read the oldest, then remove exactly those.
    let consumed = campaign.consumed(&mut con).unwrap();
    assert_eq!(consumed.iter().map(|e| e.id).collect::<Vec<_>>(), [1, 2, 3]);
    campaign.grab(&mut con, "d").unwrap();
    campaign.load(&mut con, &[8]).unwrap();
    assert!(matches!(campaign.grab(&mut con, "d").unwrap(), Grab::Granted(e) if e.id == 4));
    assert_eq!(
        campaign.remove_consumed(&mut con, consumed.len()).unwrap(),
        3
    );
    let left: Vec<u64> = campaign
        .consumed(&mut con)
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(left, [4]);
}

#[test]
fn bad_amounts_and_bad_records_change_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let campaign = RedEnvelopes::new("bad");
    campaign.load(&mut con, &[1]).unwrap();
    let snapshot = dump_all(&mut con);
    assert!(campaign.load(&mut con, &[2, 100_000_000_000_000]).is_err());
    assert_eq!(dump_all(&mut con), snapshot);

    // A record that is not JSON stays where it is.
    redis::cmd("RPUSH")
        .arg(campaign.pending_key())
        .arg("not json")
        .exec(&mut con)
        .unwrap();
    let snapshot = dump_all(&mut con);
    let error = campaign.grab(&mut con, "u").unwrap_err();
    assert!(error.to_string().contains("not a JSON object"), "{error}");
    assert_eq!(dump_all(&mut con), snapshot);
}
