//! A distributed lock: one holder at a time, always with an expiry; only the
//! holder, proven by its token, releases or extends it.
//!
//! A [`Lock`] names the lock and its time to live. Acquiring it gives a
//! [`HeldLock`], which carries the random 128-bit token stored in the lock;
//! releasing and extending check that token in a script, so a client whose
//! lock expired and was taken by another can never release or extend the
//! other's lock.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | the lock's name, e.g. `lock:report` | string | the holder's token, with an expiry of the time to live |
//!
//! # Guarantees
//!
//! - Mutual exclusion: at most one token holds the lock at any time. Taking
//!   it is one `SET NX PX`, so it never exists without an expiry.
//! - A crashed holder blocks others for at most the time to live.
//! - Only the holder releases or extends. [`HeldLock::extend`] and
//!   [`HeldLock::release`] answer `false` when the lock was lost (it expired,
//!   and perhaps another client took it): that is how a holder detects that
//!   it no longer has the lock and must stop.
//! - Nothing happens behind your back: there is no background refresh, and
//!   dropping a [`HeldLock`] does no I/O (the lock then expires after its time
//!   to live). Release it explicitly.
//!
//! Times to live are whole milliseconds on the server (`PX`); a [`Duration`]
//! is rounded up to the next millisecond. The expiry runs on the server's
//! clock, so clients' clocks do not matter; but the holder cannot know
//! exactly when it expires, since a reply takes time to arrive. Keep the
//! critical section well inside the time to live, or extend in time.
//!
//! This is a lock on one Redis server (or one primary). On a failover a
//! replica may not have received the lock yet, so two clients may briefly
//! both hold it; for a lock that must survive that, fence the protected
//! resource with a counter, or use a consensus system.
//!
//! # Redis Cluster
//!
//! Every script touches the lock's key only, so locks work in a cluster; each
//! lock lives on the node of its key's slot.
//!
//! # Async connections and pipelines
//!
//! [`Lock::acquire_call`], [`HeldLock::release_call`] and
//! [`HeldLock::extend_call`] return the script calls behind the methods, to
//! run with `.invoke_async(&mut con).await` or queue in a pipeline; pair them
//! with [`Lock::with_token`].
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use std::time::Duration;
//! use redis_script::recipes::lock::Lock;
//!
//! let lock = Lock::new("lock:monthly-report", Duration::from_secs(30));
//! let held = lock
//!     .acquire(&mut con, Duration::from_secs(5))?
//!     .ok_or("somebody else is writing the report")?;
//!
//! // While it is held, nobody else gets it.
//! assert!(lock.try_acquire(&mut con)?.is_none());
//!
//! // ... a long critical section: extend before the 30 s run out ...
//! assert!(held.extend(&mut con)?, "lost the lock: stop working");
//!
//! assert!(held.release(&mut con)?);
//! assert!(lock.try_acquire(&mut con)?.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use redis::ConnectionLike;

use crate::recipes::retry::retry_until;
use crate::recipes::{millis, random_token};
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// Takes the lock if nobody holds it, storing `token` with a time to live of
/// `ttl_ms` milliseconds; replies `Some("OK")` when it did, `None` when the
/// lock is held.
///
/// The binding behind [`Lock::try_acquire`].
///
/// ```
/// # use redis_script_test::server;
/// # let server = server::RedisServer::start();
/// # let mut con = server.connection();
/// use redis_script::recipes::lock::acquire_lock_script;
///
/// assert_eq!(acquire_lock_script("lock:a", 10_000, "t").invoke(&mut con)?.as_deref(), Some("OK"));
/// assert_eq!(acquire_lock_script("lock:a", 10_000, "u").invoke(&mut con)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
pub fn acquire_lock_script(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

/// Releases the lock if `token` holds it; replies whether it did.
///
/// The binding behind [`HeldLock::release`].
#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
pub fn release_lock_script(lock: &str, token: &str) -> bool;

/// Sets the lock's time to live to `ttl_ms` milliseconds from now if `token`
/// holds it; replies whether it did (`false`: the lock was lost).
///
/// The binding behind [`HeldLock::extend`].
#[redis_script(file = "scripts/lock_extend.lua", keys = 1)]
pub fn extend_lock_script(lock: &str, ttl_ms: u64, token: &str) -> bool;

/// A lock: its key and the time to live each acquisition gives it.
///
/// Cheap to clone, and holds no connection: pass one to each call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lock {
    key: String,
    ttl_ms: u64,
}

impl Lock {
    /// The lock stored at `key`, held for `ttl` per acquisition or extension
    /// (rounded up to whole milliseconds).
    ///
    /// A zero `ttl` is not rejected here, but every acquisition with it fails
    /// with the server's error: a lock never exists without an expiry.
    pub fn new(key: impl Into<String>, ttl: Duration) -> Lock {
        Lock {
            key: key.into(),
            ttl_ms: millis(ttl),
        }
    }

    /// This lock under `prefix` (see [`KeyPrefix`]): its key becomes
    /// the prefix followed by the key, for every script call and plain
    /// command it makes, and [`key`](Self::key) tells the prefixed key.
    pub fn with_key_prefix(mut self, prefix: &KeyPrefix) -> Self {
        self.key = prefix.apply(&self.key);
        self
    }

    /// The lock's key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The time to live of an acquisition or extension.
    pub fn ttl(&self) -> Duration {
        Duration::from_millis(self.ttl_ms)
    }

    /// Takes the lock if nobody holds it, with a fresh random token, in one
    /// round trip; `None` when it is held.
    pub fn try_acquire(&self, con: &mut dyn ConnectionLike) -> Result<Option<HeldLock>, Error> {
        let token = random_token();
        let taken = self.acquire_call(&token).invoke(con)?;
        Ok(taken.map(|_| self.with_token(token)))
    }

    /// Takes the lock, retrying while it is held until `wait` has passed;
    /// `None` when it was held all along.
    ///
    /// Tries at once, then after pauses that grow from 0.5 ms to at most
    /// 20 ms, randomized so that waiting clients do not retry in step; the
    /// last attempt is made when `wait` runs out. A zero `wait` tries once.
    /// The first error ends the wait and is returned.
    pub fn acquire(
        &self,
        con: &mut dyn ConnectionLike,
        wait: Duration,
    ) -> Result<Option<HeldLock>, Error> {
        retry_until(wait, || self.try_acquire(con))
    }

    /// The script call behind [`try_acquire`](Self::try_acquire), taking the
    /// lock for `token` (use [`random_token`]); it replies `Some("OK")` when
    /// it did. Run it with `.invoke_async` or in a pipeline, then pass the
    /// same token to [`with_token`](Self::with_token).
    pub fn acquire_call(&self, token: &str) -> Invocation<Option<String>> {
        acquire_lock_script(&self.key, self.ttl_ms, token)
    }

    /// The handle of this lock held with `token`, e.g. after an
    /// [`acquire_call`](Self::acquire_call) that succeeded, or in another
    /// process that was handed the token. Nothing is checked here:
    /// [`HeldLock::extend`] tells whether the token holds the lock.
    pub fn with_token(&self, token: impl Into<String>) -> HeldLock {
        HeldLock {
            lock: self.clone(),
            token: token.into(),
        }
    }
}

/// A lock as acquired with one token: the right to release or extend it.
///
/// Dropping it does not release the lock (that would be hidden I/O); the lock
/// then expires after its time to live. Its `Debug` output leaves out the
/// token, which would let whoever reads a log release the lock.
#[must_use = "a held lock should be released with `release`, or it stays taken until it expires"]
#[derive(Clone, PartialEq, Eq)]
pub struct HeldLock {
    lock: Lock,
    token: String,
}

impl HeldLock {
    /// The lock this handle holds.
    pub fn lock(&self) -> &Lock {
        &self.lock
    }

    /// The token stored in the lock while this handle holds it.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Releases the lock if this handle still holds it; `false` when it was
    /// lost (expired, perhaps taken by another client, whose lock is left
    /// alone). Either way the lock is no longer this handle's.
    ///
    /// If the call fails (a connection error), the lock may still be held
    /// and expires after its time to live; keep a clone or the token to retry.
    pub fn release(self, con: &mut dyn ConnectionLike) -> Result<bool, Error> {
        self.release_call().invoke(con)
    }

    /// Gives the lock its full time to live again, counted from now, if this
    /// handle still holds it; `false` when it was lost, after which the
    /// holder must stop working under the lock.
    pub fn extend(&self, con: &mut dyn ConnectionLike) -> Result<bool, Error> {
        self.extend_call().invoke(con)
    }

    /// The script call behind [`release`](Self::release).
    pub fn release_call(&self) -> Invocation<bool> {
        release_lock_script(&self.lock.key, &self.token)
    }

    /// The script call behind [`extend`](Self::extend).
    pub fn extend_call(&self) -> Invocation<bool> {
        extend_lock_script(&self.lock.key, self.lock.ttl_ms, &self.token)
    }
}

impl fmt::Debug for HeldLock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeldLock")
            .field("lock", &self.lock)
            .finish_non_exhaustive()
    }
}
