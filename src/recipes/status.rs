//! Status messages: a user posts a message, and the post, its id and the
//! user's post counter are written in one round trip by one script.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | `{status}:user:<uid>` ([`user_key`]) | hash | the user; `login` is required to post, `posts` counts the posts |
//! | `{status}:id:` ([`STATUS_ID_KEY`]) | string | the last status id taken |
//! | `{status}:<id>` ([`status_key`]) | hash | one status: `message`, `posted`, `id`, `uid`, `login` and any extra fields |
//!
//! # Guarantees
//!
//! - A post reads the login, takes the next id, writes the status and counts
//!   it atomically: no status without its counter increment, no id taken
//!   twice.
//! - A user without a `login` cannot post: nothing is written and no id is
//!   taken, so ids stay dense.
//! - `posted` comes from the server's clock (`TIME`), so statuses posted by
//!   clients with skewed clocks still sort by when they were written.
//!   It is stored as Unix seconds with six decimals, e.g. `1712345678.123456`.
//! - Extra fields cannot overwrite `message`, `posted`, `id`, `uid` or `login`:
//!   those are written last.
//!
//! # Redis Cluster
//!
//! The status hash `{status}:<id>` is named after the id the script takes,
//! so it cannot be declared in KEYS beforehand, and a cluster checks a
//! script's slot by its declared keys only. Every key of the system
//! therefore carries the hash tag `{status}`: the undeclared status hash is
//! in the slot of the declared keys, and posting works on a cluster, where
//! the whole system lives on the node that owns that slot. (Spreading it
//! over nodes would need ids taken per user instead of one dense sequence.)
//!
//! ```
//! # use redis_script::redis;
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use redis_script::recipes::status::{create_status, get_status, user_key};
//!
//! redis::cmd("HSET").arg(user_key("7")).arg("login").arg("ada").exec(&mut con)?;
//! let id = create_status(&mut con, "7", "hello", &[("mood", "happy")])?;
//! assert_eq!(id, Some(1));
//! let status = get_status(&mut con, 1)?.expect("just written");
//! assert_eq!((status.login.as_str(), status.message.as_str()), ("ada", "hello"));
//! assert_eq!(status.extra["mood"], "happy");
//!
//! // No login, no post, and no id taken.
//! assert_eq!(create_status(&mut con, "8", "hi", &[])?, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::{ConnectionLike, ParsingError};

use crate::recipes::{query, reply_error};
use crate::{Error, Invocation, KeyPrefix, redis_script};

/// The counter of status ids.
pub const STATUS_ID_KEY: &str = "{status}:id:";

/// The hash of user `uid`.
pub fn user_key(uid: &str) -> String {
    format!("{{status}}:user:{uid}")
}

/// The hash of status `id`: the counter's prefix and the id, as the script
/// names it.
pub fn status_key(id: u64) -> String {
    format!("{{status}}:{id}")
}

/// Posts `message` for the user whose hash is `user`, taking the id from
/// `status_ids`; `fields` are extra field/value pairs. Replies the new id, or
/// `None` when the user has no `login`.
///
/// The binding behind [`create_status`]; prefer [`create_status_call`],
/// which names the keys.
#[redis_script(file = "scripts/status_create.lua", keys = 2)]
pub fn create_status_script(
    user: &str,
    status_ids: &str,
    uid: &str,
    message: &str,
    #[variadic] fields: &[(&str, &str)],
) -> Option<u64>;

/// The call that [`create_status`] runs, e.g. for `invoke_async` or a pipeline.
pub fn create_status_call(
    uid: &str,
    message: &str,
    fields: &[(&str, &str)],
) -> Invocation<Option<u64>> {
    create_status_script(&user_key(uid), STATUS_ID_KEY, uid, message, fields)
}

/// Posts `message` for user `uid` with extra `fields`; returns the new
/// status id, or `None` when the user has no `login` (nothing written).
pub fn create_status(
    con: &mut dyn ConnectionLike,
    uid: &str,
    message: &str,
    fields: &[(&str, &str)],
) -> Result<Option<u64>, Error> {
    create_status_call(uid, message, fields).invoke(con)
}

/// One status message, as [`get_status`] reads it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// The status id.
    pub id: u64,
    /// The poster's user id.
    pub uid: String,
    /// The poster's login when posting.
    pub login: String,
    /// The message.
    pub message: String,
    /// When the server wrote it.
    pub posted: SystemTime,
    /// The extra fields given when posting.
    pub extra: BTreeMap<String, String>,
}

/// Reads status `id`, or `None` if there is none. A hash that lacks a
/// field of [`Status`] or holds a malformed one is an error.
pub fn get_status(con: &mut dyn ConnectionLike, id: u64) -> Result<Option<Status>, Error> {
    get_prefixed_status(con, &KeyPrefix::default(), id)
}

/// [`get_status`] under `prefix`: reads a status posted by a
/// [`create_status_call`] run with that [key prefix](KeyPrefix). (The
/// script names the status hash after its KEYS, so the hash has the
/// prefix too.)
pub fn get_prefixed_status(
    con: &mut dyn ConnectionLike,
    prefix: &KeyPrefix,
    id: u64,
) -> Result<Option<Status>, Error> {
    const OPERATION: &str = "HGETALL in get_status";
    let mut hgetall = redis::cmd("HGETALL");
    hgetall.arg(prefix.apply(&status_key(id)));
    let fields: HashMap<String, String> = query(OPERATION, &hgetall, con)?;
    if fields.is_empty() {
        return Ok(None);
    }
    Status::from_fields(fields)
        .map(Some)
        .map_err(|source| reply_error::<Status>(OPERATION, source))
}

impl Status {
    fn from_fields(mut fields: HashMap<String, String>) -> Result<Status, ParsingError> {
        let mut take = |name: &str| {
            fields
                .remove(name)
                .ok_or_else(|| ParsingError::from(format!("status hash has no `{name}` field")))
        };
        let id = take("id")?;
        let posted = take("posted")?;
        let status = Status {
            id: id
                .parse()
                .map_err(|_| ParsingError::from(format!("status id `{id}` is not a number")))?,
            uid: take("uid")?,
            login: take("login")?,
            message: take("message")?,
            posted: parse_posted(&posted)?,
            extra: BTreeMap::new(),
        };
        Ok(Status {
            extra: fields.into_iter().collect(),
            ..status
        })
    }
}

/// Parses `<seconds>.<microseconds>` as the script writes it from `TIME`.
fn parse_posted(posted: &str) -> Result<SystemTime, ParsingError> {
    let invalid =
        || ParsingError::from(format!("`posted` value `{posted}` is not <secs>.<micros>"));
    let (secs, micros) = posted.split_once('.').ok_or_else(invalid)?;
    if micros.len() != 6 {
        return Err(invalid());
    }
    let secs: u64 = secs.parse().map_err(|_| invalid())?;
    let micros: u32 = micros.parse().map_err(|_| invalid())?;
    Ok(UNIX_EPOCH + Duration::new(secs, micros * 1_000))
}
