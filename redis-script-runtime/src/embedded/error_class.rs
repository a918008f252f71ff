//! The classes a failed call is counted by ([`ErrorClass`]).
//!
//! A leaf below the errors: every embedded [`Script`](crate::Script) counts
//! its failures by class, so the class cannot live with the error type,
//! which names scripts. [`Error::class`](crate::Error::class) sorts an error
//! into one.

use std::fmt;

/// The class of a failed call, in a few words fit for a metric's label or
/// a counter: see [`Error::class`](crate::Error::class). Each class has one
/// [`applied`](crate::Error::applied) answer, except [`Script`](Self::Script) and
/// [`Other`](Self::Other) (which may or may not have run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ErrorClass {
    /// A key or fixed argument did not encode to one value
    /// ([`ErrorKind::Argument`](crate::ErrorKind::Argument)); nothing was sent.
    Argument,
    /// The keys span hash slots ([`ErrorKind::CrossSlot`](crate::ErrorKind::CrossSlot)); nothing ran.
    CrossSlot,
    /// Putting the script or library on the server failed (a `SCRIPT LOAD`
    /// or `FUNCTION LOAD` error, [`ErrorKind::Sha1Mismatch`](crate::ErrorKind::Sha1Mismatch)); nothing ran.
    Load,
    /// No connection, or a lost one (an I/O error other than a timeout).
    Connection,
    /// The call timed out ([`RedisError::is_timeout`](redis::RedisError::is_timeout)); it may still run.
    Timeout,
    /// The server refused the call before the script could write (`BUSY`,
    /// `OOM`, `READONLY`, `NOPERM`, `MOVED`, ...: the codes listed under
    /// [`Error::applied`](crate::Error::applied)).
    Refused,
    /// The script failed while running: a Lua error, a failed
    /// `redis.call`, `redis.error_reply`, or any server error not known to
    /// refuse the call.
    Script,
    /// The script ran, and its reply does not fit the declared type
    /// ([`ErrorKind::Reply`](crate::ErrorKind::Reply)).
    Reply,
    /// Refused by redis-rs itself before sending (a client-side error such
    /// as a bad configuration or a cluster without the node).
    Client,
    /// Anything else redis-rs reports, e.g. a reply it could not parse.
    Other,
}

impl ErrorClass {
    /// Every class, in declaration order.
    pub const ALL: [ErrorClass; 10] = [
        ErrorClass::Argument,
        ErrorClass::CrossSlot,
        ErrorClass::Load,
        ErrorClass::Connection,
        ErrorClass::Timeout,
        ErrorClass::Refused,
        ErrorClass::Script,
        ErrorClass::Reply,
        ErrorClass::Client,
        ErrorClass::Other,
    ];

    /// The class's name in `snake_case` (`"cross_slot"`), as metrics and
    /// spans label errors.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Argument => "argument",
            ErrorClass::CrossSlot => "cross_slot",
            ErrorClass::Load => "load",
            ErrorClass::Connection => "connection",
            ErrorClass::Timeout => "timeout",
            ErrorClass::Refused => "refused",
            ErrorClass::Script => "script",
            ErrorClass::Reply => "reply",
            ErrorClass::Client => "client",
            ErrorClass::Other => "other",
        }
    }

    /// The position of the class in [`ALL`](Self::ALL).
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
