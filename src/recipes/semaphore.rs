//! A counting semaphore: at most `limit` holders at once, each timed out by
//! the server's clock unless it refreshes in time.
//!
//! A [`Semaphore`] names the semaphore, its limit and its timeout. Acquiring
//! it gives a [`Permit`] carrying a random 128-bit token; refreshing and
//! releasing check that token. A holder that crashes without releasing is
//! timed out, and its slot goes to the next client that acquires.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | the semaphore's name, e.g. `semaphore:exports` | sorted set | member: a holder's token; score: the server time, in Unix microseconds, when it acquired or last refreshed |
//!
//! The set expires when its newest holder would time out, so a semaphore
//! nobody uses leaves no key behind.
//!
//! # Guarantees
//!
//! - At most `limit` holders at any time: acquiring evicts the timed-out
//!   holders, counts the rest and adds the caller in one script.
//! - Time is the server's (`TIME`), never a client's: a client whose clock is
//!   ahead cannot evict live holders early, and one whose clock is behind
//!   cannot stay in past its timeout.
//! - A holder that has not refreshed for the timeout is out, for good:
//!   [`Permit::refresh`] and [`Permit::release`] answer `false` from then on,
//!   even before another acquisition evicted it. That `false` is how a holder
//!   detects that it lost its slot and must stop.
//! - Dropping a [`Permit`] does no I/O: release it explicitly, or its slot is
//!   taken until it times out.
//!
//! All clients of one semaphore must use the same limit and timeout: the
//! limit is checked, and timed-out holders evicted, with the numbers of the
//! client that acquires. The timeout is whole milliseconds (a [`Duration`] is
//! rounded up), from 1 ms to 10^12 ms; outside that range every call fails.
//!
//! The semaphore is not fair: when a slot frees up, whichever waiting client
//! retries first gets it. It lives on one Redis server (or primary); after a
//! failover, holders the replica had not received yet are forgotten.
//!
//! # Redis Cluster
//!
//! Every script touches the semaphore's key only, so semaphores work in a
//! cluster; each lives on the node of its key's slot.
//!
//! # Async connections and pipelines
//!
//! [`Semaphore::acquire_call`], [`Permit::refresh_call`] and
//! [`Permit::release_call`] return the script calls behind the methods, to
//! run with `.invoke_async(&mut con).await` or queue in a pipeline; pair them
//! with [`Semaphore::with_token`].
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use std::time::Duration;
//! use redis_script::recipes::semaphore::Semaphore;
//!
//! // At most 2 exports at once; a holder silent for 10 s is out.
//! let exports = Semaphore::new("semaphore:exports", 2, Duration::from_secs(10));
//! let first = exports.try_acquire(&mut con)?.ok_or("no slot")?;
//! let second = exports.acquire(&mut con, Duration::from_secs(1))?.ok_or("no slot")?;
//! assert!(exports.try_acquire(&mut con)?.is_none(), "both slots are taken");
//!
//! // A long export refreshes within every 10 s; `false` means it lost its slot.
//! assert!(first.refresh(&mut con)?);
//!
//! assert!(first.release(&mut con)?);
//! assert!(exports.try_acquire(&mut con)?.is_some(), "a slot is free again");
//! # drop(second);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use redis::{ConnectionLike, RedisWrite, ToRedisArgs};

use crate::recipes::millis;
use crate::recipes::random_token;
use crate::recipes::retry::retry_until;
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// Adds `token` as a holder if fewer than `limit` holders are in, after
/// evicting those that have not refreshed for `timeout_ms`; replies whether
/// it did.
///
/// The binding behind [`Semaphore::try_acquire`].
///
/// ```
/// # use redis_script_test::server;
/// # let server = server::RedisServer::start();
/// # let mut con = server.connection();
/// use redis_script::recipes::semaphore::acquire_semaphore_script;
///
/// assert!(acquire_semaphore_script("sem", 1, 10_000, "a").invoke(&mut con)?);
/// assert!(!acquire_semaphore_script("sem", 1, 10_000, "b").invoke(&mut con)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[redis_script(file = "scripts/semaphore_acquire.lua", keys = 1)]
pub fn acquire_semaphore_script(semaphore: &str, limit: u64, timeout_ms: u64, token: &str) -> bool;

/// Refreshes or releases holder `token`, as `action` says; replies whether
/// it was a holder, not timed out (a timed-out holder is removed either way).
///
/// The binding behind [`Permit::refresh`] and [`Permit::release`].
#[redis_script(file = "scripts/semaphore_settle.lua", keys = 1)]
pub fn settle_semaphore_script(
    semaphore: &str,
    timeout_ms: u64,
    token: &str,
    action: Settle,
) -> bool;

/// What [`settle_semaphore_script()`] does with a holder that still holds its
/// slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Settle {
    /// Restart its timeout, counted from now on the server's clock.
    Refresh,
    /// Remove it, freeing its slot.
    Release,
}

impl ToRedisArgs for Settle {
    fn write_redis_args<W: ?Sized + RedisWrite>(&self, out: &mut W) {
        out.write_arg(match self {
            Settle::Refresh => b"refresh",
            Settle::Release => b"release",
        });
    }
}

/// A counting semaphore: its key, how many holders it admits at once, and
/// how long a holder stays in without refreshing.
///
/// Cheap to clone, and holds no connection: pass one to each call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Semaphore {
    key: String,
    limit: u64,
    timeout_ms: u64,
}

impl Semaphore {
    /// The semaphore stored at `key`, admitting `limit` holders at once, each
    /// for `timeout` after it acquired or last refreshed (rounded up to whole
    /// milliseconds).
    ///
    /// Nothing is checked here: a `limit` of 0, or a `timeout` of 0 or above
    /// 10^12 ms, makes every call fail with the server's error.
    pub fn new(key: impl Into<String>, limit: u64, timeout: Duration) -> Semaphore {
        Semaphore {
            key: key.into(),
            limit,
            timeout_ms: millis(timeout),
        }
    }

    /// This semaphore under `prefix` (see [`KeyPrefix`]): its key becomes
    /// the prefix followed by the key, for every script call and plain
    /// command it makes, and [`key`](Self::key) tells the prefixed key.
    pub fn with_key_prefix(mut self, prefix: &KeyPrefix) -> Self {
        self.key = prefix.apply(&self.key);
        self
    }

    /// The semaphore's key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// How many holders it admits at once.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// How long a holder stays in without refreshing.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// Acquires a slot if one is free, with a fresh random token, in one
    /// round trip; `None` when `limit` holders are in.
    pub fn try_acquire(&self, con: &mut dyn ConnectionLike) -> Result<Option<Permit>, Error> {
        let token = random_token();
        let acquired = self.acquire_call(&token).invoke(con)?;
        Ok(acquired.then(|| self.with_token(token)))
    }

    /// Acquires a slot, retrying while none is free until `wait` has passed;
    /// `None` when none freed up in time.
    ///
    /// Retries like [`Lock::acquire`](crate::recipes::lock::Lock::acquire):
    /// pauses growing from 0.5 ms to at most 20 ms, randomized, with a last
    /// attempt when `wait` runs out; a zero `wait` tries once.
    pub fn acquire(
        &self,
        con: &mut dyn ConnectionLike,
        wait: Duration,
    ) -> Result<Option<Permit>, Error> {
        retry_until(wait, || self.try_acquire(con))
    }

    /// The script call behind [`try_acquire`](Self::try_acquire), for `token`
    /// (use [`random_token`]); it replies whether the token is now a holder.
    /// Run it with `.invoke_async` or in a pipeline, then pass the same token
    /// to [`with_token`](Self::with_token).
    pub fn acquire_call(&self, token: &str) -> Invocation<bool> {
        acquire_semaphore_script(&self.key, self.limit, self.timeout_ms, token)
    }

    /// The permit of this semaphore held with `token`, e.g. after an
    /// [`acquire_call`](Self::acquire_call) that succeeded. Nothing is checked
    /// here: [`Permit::refresh`] tells whether the token is a holder.
    pub fn with_token(&self, token: impl Into<String>) -> Permit {
        Permit {
            semaphore: self.clone(),
            token: token.into(),
        }
    }
}

/// A slot of a [`Semaphore`] as acquired with one token.
///
/// Dropping it does not release the slot (that would be hidden I/O); the slot
/// is then taken until the timeout. Its `Debug` output leaves out the token.
#[must_use = "a permit should be released with `release`, or its slot stays taken until it times out"]
#[derive(Clone, PartialEq, Eq)]
pub struct Permit {
    semaphore: Semaphore,
    token: String,
}

impl Permit {
    /// The semaphore this permit belongs to.
    pub fn semaphore(&self) -> &Semaphore {
        &self.semaphore
    }

    /// The token of this holder in the semaphore's sorted set.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Restarts the timeout, counted from now on the server's clock, if this
    /// permit still holds its slot; `false` when it lost it (released,
    /// evicted or timed out), after which the holder must stop.
    pub fn refresh(&self, con: &mut dyn ConnectionLike) -> Result<bool, Error> {
        self.refresh_call().invoke(con)
    }

    /// Gives the slot back; `false` when this permit had already lost it
    /// (released, evicted, or timed out, and perhaps taken by another client).
    ///
    /// If the call fails (a connection error), the slot may still be taken
    /// until it times out; keep a clone or the token to retry.
    pub fn release(self, con: &mut dyn ConnectionLike) -> Result<bool, Error> {
        self.release_call().invoke(con)
    }

    /// The script call behind [`refresh`](Self::refresh).
    pub fn refresh_call(&self) -> Invocation<bool> {
        self.settle_call(Settle::Refresh)
    }

    /// The script call behind [`release`](Self::release).
    pub fn release_call(&self) -> Invocation<bool> {
        self.settle_call(Settle::Release)
    }

    fn settle_call(&self, action: Settle) -> Invocation<bool> {
        settle_semaphore_script(
            &self.semaphore.key,
            self.semaphore.timeout_ms,
            &self.token,
            action,
        )
    }
}

impl fmt::Debug for Permit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Permit")
            .field("semaphore", &self.semaphore)
            .finish_non_exhaustive()
    }
}
