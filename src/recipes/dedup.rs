//! Message de-duplication: of all the callers that see one message id,
//! exactly one is first, until the id's mark expires.
//!
//! A worker that may receive a message more than once claims its id before
//! acting on it, and acts only if it was first. Claiming is one `SET NX PX`
//! in a script: marking and checking happen together, so two workers can
//! never both see the id as new (the race of a `GET` followed by a `SET`).
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | the prefix and the id, e.g. `dedup:msg-42` ([`Dedup::key`]) | string | `1`, with an expiry of the time to live |
//!
//! # Guarantees
//!
//! - For one id, exactly one claim answers `true` while the mark lives.
//! - Every mark expires: it is written together with its expiry, so an id is
//!   new again after the time to live, and marks never pile up.
//! - The time to live is whole milliseconds on the server's clock (a
//!   [`Duration`] is rounded up); a zero one fails with the server's error and
//!   marks nothing.
//!
//! Choose a time to live longer than the window in which duplicates arrive.
//! If the first caller fails to process the message and a redelivery should
//! be processed, delete the mark (`DEL` of [`Dedup::key`]).
//!
//! # Redis Cluster
//!
//! Each claim touches the id's key only, so de-duplication works in a
//! cluster, the marks spread over its nodes.
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use std::time::Duration;
//! use redis_script::recipes::dedup::Dedup;
//!
//! let pushed = Dedup::new("msg_pushed:", Duration::from_secs(20));
//! assert!(pushed.claim(&mut con, "msg-42")?, "first delivery: push it");
//! assert!(!pushed.claim(&mut con, "msg-42")?, "a duplicate: skip it");
//! assert!(pushed.claim(&mut con, "msg-43")?, "another message");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use redis::ConnectionLike;

use crate::recipes::millis;
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// Sets the mark `key` for `ttl_ms` milliseconds unless it is set; replies
/// whether this call set it (the caller is the first).
///
/// The binding behind [`Dedup::claim`].
///
/// ```
/// # use redis_script_test::server;
/// # let server = server::RedisServer::start();
/// # let mut con = server.connection();
/// use redis_script::recipes::dedup::claim_id_script;
///
/// assert!(claim_id_script("dedup:7", 60_000).invoke(&mut con)?);
/// assert!(!claim_id_script("dedup:7", 60_000).invoke(&mut con)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[redis_script(file = "scripts/dedup_claim.lua", keys = 1)]
pub fn claim_id_script(key: &str, ttl_ms: u64) -> bool;

/// De-duplication of ids under one key prefix, each mark lasting one time
/// to live.
///
/// Cheap to clone, and holds no connection: pass one to each call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dedup {
    prefix: String,
    ttl_ms: u64,
}

impl Dedup {
    /// Marks stored at `prefix` followed by the id, each lasting `ttl`
    /// (rounded up to whole milliseconds).
    pub fn new(prefix: impl Into<String>, ttl: Duration) -> Dedup {
        Dedup {
            prefix: prefix.into(),
            ttl_ms: millis(ttl),
        }
    }

    /// This de-duplication under `prefix` (see [`KeyPrefix`]): the marks'
    /// keys become `prefix`, then this recipe's own prefix, then the id.
    pub fn with_key_prefix(mut self, prefix: &KeyPrefix) -> Self {
        self.prefix = prefix.apply(&self.prefix);
        self
    }

    /// The prefix of the marks' keys.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// How long a mark lasts.
    pub fn ttl(&self) -> Duration {
        Duration::from_millis(self.ttl_ms)
    }

    /// The key of `id`'s mark: the prefix followed by the id.
    pub fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }

    /// Claims `id` in one round trip: `true` when this caller is the first
    /// to claim it since its last mark expired (process the message), `false`
    /// when it is a duplicate.
    pub fn claim(&self, con: &mut dyn ConnectionLike, id: &str) -> Result<bool, Error> {
        self.claim_call(id).invoke(con)
    }

    /// The script call behind [`claim`](Self::claim), to run with
    /// `.invoke_async` or queue in a pipeline.
    pub fn claim_call(&self, id: &str) -> Invocation<bool> {
        claim_id_script(&self.key(id), self.ttl_ms)
    }
}
