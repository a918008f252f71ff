//! A capped leaderboard: a sorted set that keeps only the `N` best scores
//! submitted, each between 0 and a ceiling, updated atomically by one script.
//!
//! # Semantics of [`Leaderboard::submit`]
//!
//! In order:
//!
//! 1. A score below 0, above the ceiling, or NaN is refused with an error;
//!    nothing changes. (Out-of-range scores are input errors, not clamped.)
//! 2. If the set holds more than `N` members (a smaller `N` than before),
//!    its lowest members leave until it holds `N`.
//! 3. A member already in the set takes the new score, higher or lower (the
//!    latest score counts): [`Submitted::Updated`].
//! 4. With fewer than `N` members, the member joins: [`Submitted::Added`].
//! 5. Otherwise it must beat the lowest score *strictly*: on a tie the member
//!    already in stays. If it does, the lowest member leaves (among equal
//!    lowest scores, the first by name, the order Redis keeps) and the new one
//!    joins: [`Submitted::Added`] naming the evicted member. If not:
//!    [`Submitted::Rejected`].
//!
//! So after every call the set holds at most `N` members, all with scores in
//! `[0, ceiling]`. A member that left is forgotten: if it comes back, it
//! competes as a new member.
//!
//! # Key layout
//!
//! One sorted set, named by the caller; member -> score.
//!
//! # Guarantees
//!
//! - Each submission is atomic: concurrent submissions behave as if they ran
//!   one after the other.
//! - When members are only ever added (no updates) with distinct scores, the
//!   set ends with exactly the `N` highest of all scores submitted, whatever
//!   order the submissions arrive in.
//!
//! # Redis Cluster
//!
//! One key per call: works on a cluster as is.
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use redis_script::recipes::leaderboard::{Leaderboard, Submitted};
//!
//! let board = Leaderboard::new("ratings", 2, 5.0);
//! assert_eq!(board.submit(&mut con, "ada", 4.5)?, Submitted::Added { evicted: None });
//! assert_eq!(board.submit(&mut con, "bob", 3.0)?, Submitted::Added { evicted: None });
//! assert_eq!(
//!     board.submit(&mut con, "eve", 4.0)?,
//!     Submitted::Added { evicted: Some("bob".into()) }
//! );
//! assert_eq!(board.submit(&mut con, "joe", 4.0)?, Submitted::Rejected, "a tie keeps eve");
//! assert!(board.submit(&mut con, "max", 9.0).is_err(), "above the ceiling");
//! assert_eq!(board.top(&mut con)?, [("ada".to_owned(), 4.5), ("eve".to_owned(), 4.0)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use redis::{ConnectionLike, FromRedisValue, ParsingError, Value};

use crate::recipes::query;
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// What a submission did; see the [module docs](self) for the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// The member joined, evicting the lowest member if the set was full.
    Added {
        /// The member that left to make room, if any.
        evicted: Option<String>,
    },
    /// The member was in the set already and took the new score.
    Updated,
    /// The set is full and the score does not beat the lowest one.
    Rejected,
}

impl FromRedisValue for Submitted {
    fn from_redis_value(value: Value) -> Result<Self, ParsingError> {
        let reply: Vec<String> = FromRedisValue::from_redis_value(value)?;
        match reply.as_slice() {
            [outcome] if outcome == "added" => Ok(Submitted::Added { evicted: None }),
            [outcome, evicted] if outcome == "added" => Ok(Submitted::Added {
                evicted: Some(evicted.clone()),
            }),
            [outcome] if outcome == "updated" => Ok(Submitted::Updated),
            [outcome] if outcome == "rejected" => Ok(Submitted::Rejected),
            _ => Err(format!("not a leaderboard submission outcome: {reply:?}").into()),
        }
    }
}

/// Submits `score` for `member` to `board`, which keeps at most `capacity`
/// members with scores in `[0, ceiling]`.
#[redis_script(file = "scripts/leaderboard_update.lua", keys = 1)]
pub fn submit_script(
    board: &str,
    capacity: usize,
    ceiling: f64,
    score: f64,
    member: &str,
) -> Submitted;

/// A capped leaderboard: a sorted set keeping the `capacity` best scores in
/// `[0, ceiling]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaderboard {
    key: String,
    capacity: usize,
    ceiling: f64,
}

impl Leaderboard {
    /// The leaderboard stored at `key`, keeping `capacity` members with
    /// scores from 0 to `ceiling` (`f64::INFINITY` for no ceiling).
    pub fn new(key: impl Into<String>, capacity: usize, ceiling: f64) -> Leaderboard {
        Leaderboard {
            key: key.into(),
            capacity,
            ceiling,
        }
    }

    /// This leaderboard under `prefix` (see [`KeyPrefix`]): its key becomes
    /// the prefix followed by the key, for every script call and plain
    /// command it makes, and [`key`](Self::key) tells the prefixed key.
    pub fn with_key_prefix(mut self, prefix: &KeyPrefix) -> Self {
        self.key = prefix.apply(&self.key);
        self
    }

    /// The sorted set's key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The most members it keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The highest score it accepts.
    pub fn ceiling(&self) -> f64 {
        self.ceiling
    }

    /// The call [`submit`](Self::submit) runs, e.g. for `invoke_async`.
    pub fn submit_call(&self, member: &str, score: f64) -> Invocation<Submitted> {
        submit_script(&self.key, self.capacity, self.ceiling, score, member)
    }

    /// Submits `score` for `member`. Fails, changing nothing, if the score
    /// is not in `[0, ceiling]`.
    pub fn submit(
        &self,
        con: &mut dyn ConnectionLike,
        member: &str,
        score: f64,
    ) -> Result<Submitted, Error> {
        self.submit_call(member, score).invoke(con)
    }

    /// The members with their scores, best first (equal scores: later names
    /// first, the reverse of Redis's order).
    pub fn top(&self, con: &mut dyn ConnectionLike) -> Result<Vec<(String, f64)>, Error> {
        let mut zrange = redis::cmd("ZRANGE");
        zrange
            .arg(&self.key)
            .arg(0)
            .arg(-1)
            .arg("REV")
            .arg("WITHSCORES");
        query("ZRANGE in Leaderboard::top", &zrange, con)
    }
}
