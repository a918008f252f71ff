//! The one error type of script calls; every error names the script, or the
//! operation that failed.

use std::fmt;

use redis::{ParsingError, RedisError};

use crate::script::Script;

/// A failed script call. Every error names the script it came from.
///
/// Code built on bindings (such as the recipes) reports its other failures,
/// a plain command or a check of its own, with the same type: see
/// [`Error::operation`]. Such an error names that operation instead.
///
/// Convert into [`redis::RedisError`] with `?` or `.into()` where a function
/// returns `redis::RedisResult`.
#[derive(Debug, Clone)]
pub struct Error {
    script: &'static str,
    file: &'static str,
    kind: ErrorKind,
}

/// What went wrong in a script call.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The connection failed, or the server answered with an error: a Lua
    /// `error()`, `redis.error_reply`, `{err = ...}`, a failed `redis.call`, or
    /// a server condition such as BUSY or OOM. The server's error code is in
    /// [`RedisError::code`] (`redis.error_reply("MYCODE ...")` has code `MYCODE`).
    Redis(RedisError),
    /// The reply does not fit the Rust return type declared on the binding.
    Reply {
        /// The declared return type, as written.
        expected: &'static str,
        /// Why redis-rs could not convert it.
        source: ParsingError,
    },
    /// A key or fixed argument encoded to other than exactly one Redis value,
    /// which would shift every KEYS/ARGV position after it: an `Option` that
    /// was `None`, or a generic parameter that encoded to none or several.
    /// Nothing is sent. (A slice, `Vec`, array, tuple, set or map written in
    /// the declaration, or an `Option` or `Box` of one, is refused at compile
    /// time.) Use `#[variadic]` on the last parameter for a variable number
    /// of values.
    Argument {
        /// The Rust parameter.
        parameter: &'static str,
        /// How many values it encoded to.
        values: usize,
    },
    /// The call's keys are in different hash slots, which a Redis Cluster
    /// refuses (CROSSSLOT): reported with every key and its slot, either
    /// before anything is sent ([`Invocation::check_slots`](crate::Invocation::check_slots),
    /// which cluster pipelines run) or when the cluster refused the call.
    CrossSlot {
        /// Each key of the call, in KEYS order, with its hash slot.
        keys: Vec<(String, u16)>,
    },
    /// `SCRIPT LOAD` answered with a different SHA1 than the embedded one.
    Sha1Mismatch {
        /// The SHA1 computed at compile time.
        expected: &'static str,
        /// The SHA1 the server computed.
        actual: String,
    },
}

impl Error {
    pub(crate) fn new(script: &Script, kind: ErrorKind) -> Error {
        Error {
            script: script.name(),
            file: script.file(),
            kind,
        }
    }

    pub(crate) fn redis(script: &Script, error: RedisError) -> Error {
        Error::new(script, ErrorKind::Redis(error))
    }

    pub(crate) fn sha1_mismatch(script: &Script, actual: String) -> Error {
        Error::new(
            script,
            ErrorKind::Sha1Mismatch {
                expected: script.sha1(),
                actual,
            },
        )
    }

    /// The error of an operation that is not a script binding, e.g. a plain
    /// command or a check made by code built on bindings, so that such code
    /// returns one error type whatever failed. `operation` names what failed,
    /// in words a reader of a log understands (`"ZRANGE in
    /// Leaderboard::top"`); `kind` says how ([`ErrorKind::Redis`] for the
    /// command's own error, [`ErrorKind::Reply`] for a reply that does not
    /// convert). [`script`](Self::script) then returns `operation`, and
    /// [`file`](Self::file) is empty.
    ///
    /// ```
    /// use redis_script_runtime::{Error, ErrorKind}; // `redis_script::` in the facade
    ///
    /// let refused = redis::RedisError::from((redis::ErrorKind::Client, "queue is full"));
    /// let error = Error::operation("RPUSH in Queue::push", ErrorKind::Redis(refused));
    /// assert_eq!(error.script(), "RPUSH in Queue::push");
    /// assert_eq!(error.file(), "");
    /// assert!(error.to_string().starts_with("RPUSH in Queue::push: queue is full"));
    /// ```
    pub fn operation(operation: &'static str, kind: ErrorKind) -> Error {
        Error {
            script: operation,
            file: "",
            kind,
        }
    }

    /// The name of the binding whose call failed; for an error made by
    /// [`Error::operation`], the operation's name.
    pub fn script(&self) -> &'static str {
        self.script
    }

    /// The Lua file of that binding, as written in its attribute; empty for
    /// an error made by [`Error::operation`].
    pub fn file(&self) -> &'static str {
        self.file
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The underlying redis-rs error, for connection and server errors.
    pub fn redis_error(&self) -> Option<&RedisError> {
        match &self.kind {
            ErrorKind::Redis(error) => Some(error),
            _ => None,
        }
    }

    /// The server's error code, such as `ERR`, `BUSY` or the code a script
    /// gave `redis.error_reply`, when the server answered with an error.
    pub fn code(&self) -> Option<&str> {
        self.redis_error().and_then(RedisError::code)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            write!(f, "{}: ", self.script)?;
        } else {
            write!(f, "script `{}` ({}): ", self.script, self.file)?;
        }
        match &self.kind {
            ErrorKind::Redis(error) => write!(f, "{error}"),
            ErrorKind::Reply { expected, source } => {
                write!(
                    f,
                    "the reply does not fit the declared type `{expected}`: {source}"
                )
            }
            ErrorKind::Argument { parameter, values } => write!(
                f,
                "parameter `{parameter}` encoded to {values} Redis values, but a key or fixed \
                 argument must encode to exactly one (mark a trailing parameter #[variadic] \
                 to pass several)"
            ),
            ErrorKind::CrossSlot { keys } => {
                write!(
                    f,
                    "the keys are in different hash slots, which a cluster refuses: "
                )?;
                for (index, (key, slot)) in keys.iter().enumerate() {
                    let separator = if index == 0 { "" } else { ", " };
                    write!(f, "{separator}`{key}` (slot {slot})")?;
                }
                write!(
                    f,
                    "; give them one hash tag (`{{tag}}:a`, `{{tag}}:b`) so they share a slot"
                )
            }
            ErrorKind::Sha1Mismatch { expected, actual } => write!(
                f,
                "SCRIPT LOAD returned SHA1 {actual}, but the embedded SHA1 is {expected}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Redis(error) => Some(error),
            ErrorKind::Reply { source, .. } => Some(source),
            ErrorKind::Argument { .. }
            | ErrorKind::CrossSlot { .. }
            | ErrorKind::Sha1Mismatch { .. } => None,
        }
    }
}

impl From<Error> for RedisError {
    /// Server and connection errors pass through unchanged, so their kind and
    /// code survive; other errors become a client error whose detail names the
    /// script (or the operation).
    fn from(error: Error) -> RedisError {
        match error.kind {
            ErrorKind::Redis(inner) => inner,
            ErrorKind::Reply { .. } => RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "reply does not fit the declared type",
                error.to_string(),
            )),
            ErrorKind::CrossSlot { .. } => RedisError::from((
                redis::ErrorKind::Server(redis::ServerErrorKind::CrossSlot),
                "script keys span hash slots",
                error.to_string(),
            )),
            ErrorKind::Argument { .. } | ErrorKind::Sha1Mismatch { .. } => RedisError::from((
                redis::ErrorKind::Client,
                "script call failed",
                error.to_string(),
            )),
        }
    }
}
