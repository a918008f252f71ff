//! Red envelopes (a lottery): a fixed set of prizes that users grab, one
//! envelope per user and each envelope to one user, with every grant queued
//! for later persistence.
//!
//! Envelopes are JSON records (`{"id":7,"amount":500}`, see [`Envelope`])
//! encoded and decoded by the scripts with `cjson`. [`RedEnvelopes::load`]
//! gives each amount the next id and queues it; [`RedEnvelopes::grab`] hands
//! the oldest queued envelope to a user who has none yet, adds `"userId"` to
//! its record, remembers the grant per user, and appends the record to the
//! consumed list, from which a worker persists grants
//! ([`consumed`](RedEnvelopes::consumed), then
//! [`remove_consumed`](RedEnvelopes::remove_consumed)).
//!
//! Envelopes are granted in the order loaded: shuffle the amounts before
//! [`load`](RedEnvelopes::load) for a random draw.
//!
//! # Key layout
//!
//! For a campaign `<name>`, all keys share the hash tag `{<name>}`:
//!
//! | key | type | content |
//! |---|---|---|
//! | `envelope:{<name>}:pending` | list | envelopes not yet granted, oldest at the tail |
//! | `envelope:{<name>}:consumed` | list | granted records, newest at the head |
//! | `envelope:{<name>}:grants` | hash | user id -> the record granted to that user |
//! | `envelope:{<name>}:next_id` | string | the last envelope id given |
//!
//! Ids and amounts are whole numbers below 10<sup>14</sup>, which `cjson`
//! writes exactly.
//!
//! # Guarantees
//!
//! - An envelope is granted at most once, and a user is granted at most one
//!   envelope, however many grabs run at once: each grab checks the user,
//!   takes the envelope, records the grant and queues it atomically.
//! - While envelopes last, every first grab of a user gets one: `n`
//!   envelopes and `m` users give exactly `min(n, m)` grants.
//! - A repeated grab answers the user's earlier envelope
//!   ([`Grab::AlreadyGranted`]) and changes nothing, so a client can retry
//!   after a lost reply.
//! - The consumed list holds exactly the granted records, each once, until
//!   removed after persisting.
//!
//! # Redis Cluster
//!
//! Every script names all its keys, which share the campaign's hash tag, so
//! they live in one slot: works on a cluster.
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use redis_script::recipes::red_envelope::{Grab, RedEnvelopes};
//!
//! let campaign = RedEnvelopes::new("new-year");
//! let loaded = campaign.load(&mut con, &[888, 66])?;
//! assert_eq!((loaded[0].id, loaded[0].amount), (1, 888));
//!
//! let Grab::Granted(envelope) = campaign.grab(&mut con, "alice")? else { panic!() };
//! assert_eq!((envelope.id, envelope.user_id.as_deref()), (1, Some("alice")));
//! assert_eq!(campaign.grab(&mut con, "alice")?, Grab::AlreadyGranted(envelope.clone()));
//! assert!(matches!(campaign.grab(&mut con, "bob")?, Grab::Granted(_)));
//! assert_eq!(campaign.grab(&mut con, "carol")?, Grab::SoldOut);
//!
//! let consumed = campaign.consumed(&mut con)?;
//! assert_eq!(consumed[0], envelope);
//! assert_eq!(campaign.remove_consumed(&mut con, consumed.len())?, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use redis::{ConnectionLike, FromRedisValue, ParsingError, Value};
use serde::{Deserialize, Serialize};

use crate::recipes::{query, slot_tag};
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// One red envelope, as the scripts store it in JSON.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// The envelope's id, unique within its campaign.
    pub id: u64,
    /// The amount it holds.
    pub amount: u64,
    /// The user it was granted to; `None` while it waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
}

impl FromRedisValue for Envelope {
    /// Parses the JSON record stored in Redis.
    fn from_redis_value(value: Value) -> Result<Self, ParsingError> {
        let json: String = FromRedisValue::from_redis_value(value)?;
        serde_json::from_str(&json)
            .map_err(|error| format!("not a red envelope record ({error}): {json}").into())
    }
}

/// What a grab got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grab {
    /// A new envelope, now granted to this user.
    Granted(Envelope),
    /// The envelope this user was granted before; nothing changed.
    AlreadyGranted(Envelope),
    /// No envelope left; the user may try again after more are loaded.
    SoldOut,
}

impl FromRedisValue for Grab {
    fn from_redis_value(value: Value) -> Result<Self, ParsingError> {
        let reply: Vec<Value> = FromRedisValue::from_redis_value(value)?;
        let mut reply = reply.into_iter();
        let outcome: String = match reply.next() {
            Some(outcome) => FromRedisValue::from_redis_value(outcome)?,
            None => return Err("empty red envelope grab reply".into()),
        };
        let record = reply.next().map(Envelope::from_redis_value).transpose()?;
        match (outcome.as_str(), record, reply.next()) {
            ("granted", Some(envelope), None) => Ok(Grab::Granted(envelope)),
            ("repeat", Some(envelope), None) => Ok(Grab::AlreadyGranted(envelope)),
            ("sold_out", None, None) => Ok(Grab::SoldOut),
            _ => Err(format!("not a red envelope grab outcome: {outcome:?}").into()),
        }
    }
}

/// Queues one envelope per amount on `pending`, taking ids from `next_id`;
/// replies the first new id.
#[redis_script(file = "scripts/red_envelope_load.lua", keys = 2)]
pub fn load_script(pending: &str, next_id: &str, #[variadic] amounts: &[u64]) -> u64;

/// Grabs the oldest envelope of `pending` for `user` unless `grants` has
/// one for them, queueing the granted record on `consumed`.
#[redis_script(file = "scripts/red_envelope_grab.lua", keys = 3)]
pub fn grab_script(pending: &str, consumed: &str, grants: &str, user: &str) -> Grab;

/// One campaign of red envelopes, naming its keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedEnvelopes {
    pending: String,
    consumed: String,
    grants: String,
    next_id: String,
}

impl RedEnvelopes {
    /// The campaign `name`; its keys are `envelope:{<name>}:...`.
    ///
    /// # Panics
    ///
    /// If `name` is empty or starts with `}`, which would not be a hash tag.
    pub fn new(name: &str) -> RedEnvelopes {
        let tag = slot_tag("red envelope campaign", name);
        let key = |part: &str| format!("envelope:{tag}:{part}");
        RedEnvelopes {
            pending: key("pending"),
            consumed: key("consumed"),
            grants: key("grants"),
            next_id: key("next_id"),
        }
    }

    /// This campaign under `prefix` (see [`KeyPrefix`]): each of its keys
    /// becomes the prefix followed by the key; a prefix from
    /// [`KeyPrefix::new`] keeps them in the one slot of the campaign's tag.
    pub fn with_key_prefix(self, prefix: &KeyPrefix) -> Self {
        RedEnvelopes {
            pending: prefix.apply(&self.pending),
            consumed: prefix.apply(&self.consumed),
            grants: prefix.apply(&self.grants),
            next_id: prefix.apply(&self.next_id),
        }
    }

    /// The list of envelopes not yet granted.
    pub fn pending_key(&self) -> &str {
        &self.pending
    }

    /// The list of granted records, newest first.
    pub fn consumed_key(&self) -> &str {
        &self.consumed
    }

    /// The hash of grants: user id -> granted record.
    pub fn grants_key(&self) -> &str {
        &self.grants
    }

    /// Creates one envelope per amount (each below 10<sup>14</sup>), granted
    /// in this order after any loaded before; returns them with their ids.
    pub fn load(
        &self,
        con: &mut dyn ConnectionLike,
        amounts: &[u64],
    ) -> Result<Vec<Envelope>, Error> {
        let first = load_script(&self.pending, &self.next_id, amounts).invoke(con)?;
        Ok((first..)
            .zip(amounts)
            .map(|(id, &amount)| Envelope {
                id,
                amount,
                user_id: None,
            })
            .collect())
    }

    /// The call [`grab`](Self::grab) runs, e.g. for `invoke_async`.
    pub fn grab_call(&self, user: &str) -> Invocation<Grab> {
        grab_script(&self.pending, &self.consumed, &self.grants, user)
    }

    /// Grabs an envelope for `user`.
    pub fn grab(&self, con: &mut dyn ConnectionLike, user: &str) -> Result<Grab, Error> {
        self.grab_call(user).invoke(con)
    }

    /// How many envelopes are left.
    pub fn pending(&self, con: &mut dyn ConnectionLike) -> Result<usize, Error> {
        let mut llen = redis::cmd("LLEN");
        llen.arg(&self.pending);
        query("LLEN in RedEnvelopes::pending", &llen, con)
    }

    /// The granted records not yet removed, oldest first.
    pub fn consumed(&self, con: &mut dyn ConnectionLike) -> Result<Vec<Envelope>, Error> {
        let mut lrange = redis::cmd("LRANGE");
        lrange.arg(&self.consumed).arg(0).arg(-1);
        let mut newest_first: Vec<Envelope> =
            query("LRANGE in RedEnvelopes::consumed", &lrange, con)?;
        newest_first.reverse();
        Ok(newest_first)
    }

    /// Removes the `count` oldest granted records, once persisted; returns
    /// how many it removed. Grants made meanwhile are newer, so the records
    /// just read with [`consumed`](Self::consumed) are exactly the ones removed.
    pub fn remove_consumed(
        &self,
        con: &mut dyn ConnectionLike,
        count: usize,
    ) -> Result<usize, Error> {
        if count == 0 {
            return Ok(0);
        }
        let mut rpop = redis::cmd("RPOP");
        rpop.arg(&self.consumed).arg(count);
        let removed: Option<Vec<Value>> =
            query("RPOP in RedEnvelopes::remove_consumed", &rpop, con)?;
        Ok(removed.map_or(0, |records| records.len()))
    }
}
