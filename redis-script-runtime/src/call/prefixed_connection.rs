//! A connection whose script calls all run under one key prefix.

use std::ops::{Deref, DerefMut};

use redis::{ConnectionLike, FromRedisValue};

use super::invocation::Invocation;
use crate::error::Error;
use crate::wire::key_prefix::KeyPrefix;

/// A redis-rs connection (sync or async, single server or cluster) paired
/// with a [`KeyPrefix`] that every script call run through it gets: the
/// per-connection form of [`Invocation::key_prefix`], for a service or
/// tenant that owns a namespace.
///
/// Script calls run with [`invoke`](Self::invoke) or
/// [`invoke_async`](Self::invoke_async) on the wrapper. Everything else
/// reaches the connection unchanged through `Deref` (`&mut *con`) or
/// [`get_mut`](Self::get_mut): plain redis-rs commands are not prefixed, as
/// this crate cannot tell which of their arguments are keys. Use
/// [`KeyPrefix::apply`] for their keys.
///
/// The wrapper deliberately does not implement redis-rs's `ConnectionLike`:
/// if it did, `call.invoke(&mut con)` would compile and run the call
/// *without* the prefix, on another namespace's keys. As it is, that line
/// does not compile. For pipelines and [`Batch`](crate::Batch)es, prefix
/// each call: `pipe.evalsha_script(&call.key_prefix(con.prefix()))` or
/// `batch.add(&call.key_prefix(con.prefix()))`, then run them on
/// `&mut *con`. Whatever is given `&mut *con` (a pipeline, a batch, a
/// recipe's method) sees no prefix: the recipes take theirs with
/// `with_key_prefix`.
///
/// ```ignore
/// use redis_script::{KeyPrefix, PrefixedConnection};
/// use redis_script::recipes::dedup::claim_id_script;
///
/// let mut tenant = PrefixedConnection::new(client.get_connection()?, KeyPrefix::new("tenant-a:")?);
/// assert!(tenant.invoke(&claim_id_script("order:1", 60_000))?);
/// // The key is the prefixed one; a plain command is not prefixed.
/// let ttl: i64 = redis::cmd("PTTL").arg("tenant-a:order:1").query(&mut *tenant)?;
/// assert!(ttl > 0);
/// ```
#[derive(Debug, Clone)]
pub struct PrefixedConnection<C> {
    con: C,
    prefix: KeyPrefix,
}

impl<C> PrefixedConnection<C> {
    /// `con`, with script calls run under `prefix`.
    pub fn new(con: C, prefix: KeyPrefix) -> PrefixedConnection<C> {
        PrefixedConnection { con, prefix }
    }

    /// The prefix of every script call run through this connection.
    pub fn prefix(&self) -> &KeyPrefix {
        &self.prefix
    }

    /// The connection, for plain commands (not prefixed).
    pub fn get_ref(&self) -> &C {
        &self.con
    }

    /// The connection, for plain commands (not prefixed).
    pub fn get_mut(&mut self) -> &mut C {
        &mut self.con
    }

    /// The connection, unwrapped.
    pub fn into_inner(self) -> C {
        self.con
    }
}

impl<C: ConnectionLike> PrefixedConnection<C> {
    /// Runs `call` with this connection's prefix before each of its KEYS,
    /// as [`Invocation::invoke`] does.
    pub fn invoke<T: FromRedisValue>(&mut self, call: &Invocation<T>) -> Result<T, Error> {
        match call.with_key_prefix(&self.prefix) {
            Some(prefixed) => prefixed.invoke(&mut self.con),
            None => call.invoke(&mut self.con),
        }
    }
}

#[cfg(feature = "aio")]
#[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
impl<C: redis::aio::ConnectionLike> PrefixedConnection<C> {
    /// Runs `call` with this connection's prefix before each of its KEYS,
    /// as [`Invocation::invoke_async`] does.
    pub async fn invoke_async<T: FromRedisValue>(
        &mut self,
        call: &Invocation<T>,
    ) -> Result<T, Error> {
        match call.with_key_prefix(&self.prefix) {
            Some(prefixed) => prefixed.invoke_async(&mut self.con).await,
            None => call.invoke_async(&mut self.con).await,
        }
    }
}

impl<C> Deref for PrefixedConnection<C> {
    type Target = C;

    fn deref(&self) -> &C {
        &self.con
    }
}

impl<C> DerefMut for PrefixedConnection<C> {
    fn deref_mut(&mut self) -> &mut C {
        &mut self.con
    }
}
