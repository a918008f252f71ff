//! A marketplace: sellers list items at a price, buyers buy them; a purchase
//! checks the buyer's funds and moves the funds and the item in one script,
//! without locks or WATCH retries.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | `{market}:listings` ([`MARKET_KEY`]) | sorted set | `<item>.<seller>` ([`market_member`]) scored by price |
//! | `{market}:users:<id>` ([`user_key`]) | hash | `funds`: a whole number; missing counts as 0 |
//! | `{market}:inventory:<id>` ([`inventory_key`]) | set | the item ids a user owns |
//!
//! Prices and funds are whole numbers from 0 to 2<sup>53</sup> - 1 (Lua
//! numbers are doubles). Item ids should not contain `.`, which separates
//! the item from the seller in market members.
//!
//! # Guarantees
//!
//! - A purchase happens entirely or not at all: the buyer pays exactly the
//!   listed price, the seller receives it, the item leaves the market and
//!   joins the buyer's inventory. Funds are never created or lost.
//! - Of concurrent buyers of one listing, exactly one succeeds (if any can
//!   pay): the listing is gone for the others.
//! - A buyer whose funds are short gets `false` and nothing changes. Values
//!   that are not whole numbers in range make the call fail before any write.
//! - A listing moves an item from the seller's inventory to the market in one
//!   step; a seller cannot list an item twice or one they do not hold.
//!
//! # Redis Cluster
//!
//! A purchase moves funds between any two users and an item between any
//! inventory and the market in one script, so every key of the marketplace
//! must be in one slot: they all carry the hash tag `{market}`. On a cluster
//! the whole marketplace lives on the node that owns that slot; that is the
//! price of moving funds and items atomically without a distributed
//! transaction.
//!
//! ```
//! # use redis_script::redis;
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use redis_script::recipes::marketplace::{inventory_key, list_item, purchase_item, user_key};
//!
//! redis::cmd("SADD").arg(inventory_key("17")).arg("sword").exec(&mut con)?;
//! redis::cmd("HSET").arg(user_key("27")).arg("funds").arg(125).exec(&mut con)?;
//! assert!(list_item(&mut con, "sword", "17", 100)?);
//! assert!(purchase_item(&mut con, "27", "sword", "17")?);
//! assert!(!purchase_item(&mut con, "27", "sword", "17")?, "sold already");
//! let funds: u64 = redis::cmd("HGET").arg(user_key("17")).arg("funds").query(&mut con)?;
//! assert_eq!(funds, 100);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use redis::ConnectionLike;

use crate::{Error, Invocation, redis_script};

/// The market: listings scored by price.
pub const MARKET_KEY: &str = "{market}:listings";

/// The hash of user `id`, holding its `funds`.
pub fn user_key(id: &str) -> String {
    format!("{{market}}:users:{id}")
}

/// The set of item ids user `id` owns.
pub fn inventory_key(id: &str) -> String {
    format!("{{market}}:inventory:{id}")
}

/// The market member of `item` listed by `seller`.
pub fn market_member(item: &str, seller: &str) -> String {
    format!("{item}.{seller}")
}

/// Buys `member` from `market` for `buyer`, paying `seller` and adding `item`
/// to `inventory`; replies whether the purchase happened.
#[redis_script(file = "scripts/marketplace_purchase.lua", keys = 4)]
pub fn purchase_item_script(
    market: &str,
    buyer: &str,
    seller: &str,
    inventory: &str,
    member: &str,
    item: &str,
) -> bool;

/// Moves `item` from the seller's `inventory` to `market` as `member` at
/// `price`; replies whether the seller held it.
#[redis_script(file = "scripts/marketplace_list.lua", keys = 2)]
pub fn list_item_script(
    inventory: &str,
    market: &str,
    item: &str,
    member: &str,
    price: u64,
) -> bool;

/// The call [`purchase_item`] runs, e.g. for `invoke_async`.
pub fn purchase_item_call(buyer: &str, item: &str, seller: &str) -> Invocation<bool> {
    purchase_item_script(
        MARKET_KEY,
        &user_key(buyer),
        &user_key(seller),
        &inventory_key(buyer),
        &market_member(item, seller),
        item,
    )
}

/// Buys `item` listed by `seller` for `buyer`; returns whether the purchase
/// happened (`false`: not on the market, or the buyer's funds are short).
pub fn purchase_item(
    con: &mut dyn ConnectionLike,
    buyer: &str,
    item: &str,
    seller: &str,
) -> Result<bool, Error> {
    purchase_item_call(buyer, item, seller).invoke(con)
}

/// The call [`list_item`] runs, e.g. for `invoke_async`.
pub fn list_item_call(item: &str, seller: &str, price: u64) -> Invocation<bool> {
    list_item_script(
        &inventory_key(seller),
        MARKET_KEY,
        item,
        &market_member(item, seller),
        price,
    )
}

/// Lists `item` from `seller`'s inventory at `price`; returns whether it
/// was listed (`false`: the seller does not hold it).
pub fn list_item(
    con: &mut dyn ConnectionLike,
    item: &str,
    seller: &str,
    price: u64,
) -> Result<bool, Error> {
    list_item_call(item, seller, price).invoke(con)
}
