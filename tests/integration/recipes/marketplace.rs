//! Marketplace: concurrent buyers of one item, conservation of funds, and
//! purchases that must change nothing.

use std::sync::Barrier;
use std::thread;

use redis::Connection;
use redis_script::recipes::marketplace::{
    MARKET_KEY, inventory_key, list_item, market_member, purchase_item, user_key,
};

use super::dump_all;
use crate::server::RedisServer;

const SELLER: &str = "seller";
const PRICE: i64 = 50;

fn set_funds(con: &mut Connection, user: &str, funds: impl redis::ToRedisArgs) {
    redis::cmd("HSET")
        .arg(user_key(user))
        .arg("funds")
        .arg(funds)
        .exec(con)
        .unwrap();
}

fn funds(con: &mut Connection, user: &str) -> i64 {
    let funds: Option<i64> = redis::cmd("HGET")
        .arg(user_key(user))
        .arg("funds")
        .query(con)
        .unwrap();
    funds.unwrap_or(0)
}

fn owns(con: &mut Connection, user: &str, item: &str) -> bool {
    redis::cmd("SISMEMBER")
        .arg(inventory_key(user))
        .arg(item)
        .query(con)
        .unwrap()
}

fn on_market(con: &mut Connection, item: &str, seller: &str) -> bool {
    let score: Option<f64> = redis::cmd("ZSCORE")
        .arg(MARKET_KEY)
        .arg(market_member(item, seller))
        .query(con)
        .unwrap();
    score.is_some()
}

/// The seller holds `item` and lists it at [`PRICE`].
fn put_on_market(con: &mut Connection, item: &str) {
    redis::cmd("SADD")
        .arg(inventory_key(SELLER))
        .arg(item)
        .exec(con)
        .unwrap();
    assert!(list_item(con, item, SELLER, PRICE as u64).unwrap());
}

#[test]
fn of_concurrent_buyers_exactly_one_gets_each_item_and_funds_are_conserved() {
    const BUYERS: usize = 8;
    const ITEMS: usize = 25;
    // Enough for some buyers to buy several items, not all of them.
    const START_FUNDS: i64 = 3 * PRICE + 7;
    let server = RedisServer::start();
    let mut con = server.connection();
    let buyers: Vec<String> = (0..BUYERS).map(|b| format!("buyer{b}")).collect();
    for buyer in &buyers {
        set_funds(&mut con, buyer, START_FUNDS);
    }
    set_funds(&mut con, SELLER, 0);
    let total = |con: &mut Connection| -> i64 {
        buyers.iter().map(|b| funds(con, b)).sum::<i64>() + funds(con, SELLER)
    };
    let before = total(&mut con);

    for item in 0..ITEMS {
        let item = format!("item{item}");
        put_on_market(&mut con, &item);
        let could_pay = buyers.iter().any(|b| funds(&mut con, b) >= PRICE);
        let start = Barrier::new(BUYERS);
        let outcomes: Vec<bool> = thread::scope(|scope| {
            let tries: Vec<_> = buyers
                .iter()
                .map(|buyer| {
                    let mut con = server.connection();
                    let (start, item) = (&start, &item);
                    scope.spawn(move || {
                        start.wait();
                        purchase_item(&mut con, buyer, item, SELLER).unwrap()
                    })
                })
                .collect();
            tries.into_iter().map(|t| t.join().unwrap()).collect()
        });

        let owners: Vec<&String> = buyers.iter().filter(|b| owns(&mut con, b, &item)).collect();
        let winners: Vec<&String> = buyers
            .iter()
            .zip(&outcomes)
            .filter_map(|(buyer, won)| won.then_some(buyer))
            .collect();
        assert_eq!(
            winners.len(),
            usize::from(could_pay),
            "{item}: {outcomes:?}"
        );
        assert_eq!(
            owners, winners,
            "{item}: the buyer that succeeded owns it, nobody else"
        );
        assert_eq!(on_market(&mut con, &item, SELLER), !could_pay);
        assert!(!owns(&mut con, SELLER, &item));
        assert_eq!(total(&mut con), before, "after {item}: funds conserved");
    }
    let sold: i64 = buyers
        .iter()
        .map(|b| {
            let count: i64 = redis::cmd("SCARD")
                .arg(inventory_key(b))
                .query(&mut con)
                .unwrap();
            assert_eq!(
                funds(&mut con, b),
                START_FUNDS - count * PRICE,
                "{b} paid each item"
            );
            count
        })
        .sum();
    assert_eq!(funds(&mut con, SELLER), sold * PRICE);
    // Each buyer can pay for 3 items: 24 sold, the last item finds no buyer.
    assert_eq!(
        sold,
        (BUYERS as i64 * (START_FUNDS / PRICE)).min(ITEMS as i64)
    );
    assert!(sold < ITEMS as i64);
}

#[test]
fn purchases_that_cannot_happen_change_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    set_funds(&mut con, "poor", PRICE - 1);
    set_funds(&mut con, SELLER, 10);
    put_on_market(&mut con, "sword");
    let snapshot = dump_all(&mut con);

    assert!(
        !purchase_item(&mut con, "poor", "sword", SELLER).unwrap(),
        "funds short"
    );
    assert!(
        !purchase_item(&mut con, "nobody", "sword", SELLER).unwrap(),
        "no funds at all"
    );
    assert!(
        !purchase_item(&mut con, "poor", "shield", SELLER).unwrap(),
        "not listed"
    );
    assert!(
        !purchase_item(&mut con, "poor", "sword", "other").unwrap(),
        "other seller"
    );
    assert_eq!(dump_all(&mut con), snapshot);

    // Malformed amounts fail before any write.
    for bad in ["12.5", "lots", "-3"] {
        set_funds(&mut con, "poor", bad);
        let snapshot = dump_all(&mut con);
        let error = purchase_item(&mut con, "poor", "sword", SELLER).unwrap_err();
        assert!(error.to_string().contains("whole numbers"), "{error}");
        assert_eq!(dump_all(&mut con), snapshot);
    }
    // A seller whose funds would leave the exact range of Lua numbers.
    set_funds(&mut con, "poor", PRICE);
    set_funds(&mut con, SELLER, (1_i64 << 53) - PRICE);
    let snapshot = dump_all(&mut con);
    assert!(purchase_item(&mut con, "poor", "sword", SELLER).is_err());
    assert_eq!(dump_all(&mut con), snapshot);

    // Exactly enough is enough.
    set_funds(&mut con, SELLER, 10);
    assert!(purchase_item(&mut con, "poor", "sword", SELLER).unwrap());
    assert_eq!(
        (funds(&mut con, "poor"), funds(&mut con, SELLER)),
        (0, 10 + PRICE)
    );
}

#[test]
fn listing_moves_an_item_the_seller_holds_and_nothing_else() {
    let server = RedisServer::start();
    let mut con = server.connection();
    assert!(!list_item(&mut con, "ghost", SELLER, 5).unwrap());
    assert!(dump_all(&mut con).is_empty());

    put_on_market(&mut con, "bow");
    assert!(!owns(&mut con, SELLER, "bow"));
    assert!(on_market(&mut con, "bow", SELLER));
    assert!(!list_item(&mut con, "bow", SELLER, 5).unwrap(), "not twice");
    let price: i64 = redis::cmd("ZSCORE")
        .arg(MARKET_KEY)
        .arg(market_member("bow", SELLER))
        .query(&mut con)
        .unwrap();
    assert_eq!(price, PRICE);
}
