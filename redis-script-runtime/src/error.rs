//! The one error type of script calls; every error names the script, or the
//! operation that failed.
//!
//! Above `embedded` (it names scripts and libraries) and `wire` (it reads
//! the servers' refusal words to tell whether a failed call may have run),
//! and below everything that fails.

use std::fmt;

use redis::{ParsingError, RedisError};

use crate::embedded::error_class::ErrorClass;
use crate::embedded::library::Library;
use crate::embedded::script::Script;
use crate::wire::refusals;

/// A failed script call. Every error names the script it came from: the
/// Rust binding and its Lua file, and for a `#[redis_function]` binding also
/// the function it calls and that function's library, as the server knows
/// them ([`function`](Error::function), [`library`](Error::library)).
///
/// Code built on bindings (such as the recipes) reports its other failures,
/// a plain command or a check of its own, with the same type: see
/// [`Error::operation`]. Such an error names that operation instead.
///
/// [`applied`](Error::applied) tells whether the failed call may have taken
/// effect, so whether it is safe to retry; [`is_busy`](Error::is_busy)
/// tells a server busy with a slow script apart from other failures.
///
/// Convert into [`redis::RedisError`] with `?` or `.into()` where a function
/// returns `redis::RedisResult`.
#[derive(Debug, Clone)]
pub struct Error {
    script: &'static str,
    file: &'static str,
    /// The library of a `#[redis_function]` binding, or of a library load.
    library: Option<&'static str>,
    /// The function a `#[redis_function]` binding calls.
    function: Option<&'static str>,
    kind: ErrorKind,
    /// Set when the error came from `SCRIPT LOAD`, which never runs the
    /// script, whatever the error says: see [`Error::applied`].
    during_load: bool,
}

/// Whether the call that failed may have taken effect on the server: see
/// [`Error::applied`].
///
/// A script runs atomically, but Redis does not roll back what it wrote
/// before an error: "took effect" means that the script ran, in part or in
/// full. What to do depends on the answer: retry a [`No`](Applied::No)
/// freely; after a [`Maybe`](Applied::Maybe), retry only a call that is safe
/// to run twice, or first read back what the script would have written; a
/// [`Yes`](Applied::Yes) must not be retried as if it had not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applied {
    /// The script did not run, or ran without writing anything: the call was
    /// never sent, or the server refused it before the script could write.
    No,
    /// It may have run, in part or in full: the connection was lost or
    /// timed out after the call may have been sent, or the script itself
    /// raised an error, possibly after writing.
    Maybe,
    /// It ran and replied: only the reply did not fit the declared type.
    Yes,
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
            library: script.library().map(Library::name),
            function: script.function_name(),
            kind,
            during_load: false,
        }
    }

    /// Marks an error of `SCRIPT LOAD` (or `FUNCTION LOAD`), after which the script has
    /// certainly not run: [`applied`](Self::applied) is then
    /// [`Applied::No`] whatever the cause (even a lost connection).
    pub(crate) fn during_load(mut self) -> Error {
        self.during_load = true;
        self
    }

    /// An error of loading or checking a Redis Functions library, named by
    /// the library (no binding: [`script`](Self::script) is the library's
    /// name too); no function ran.
    pub(crate) fn of_library(library: &Library, kind: ErrorKind) -> Error {
        Error {
            script: library.name(),
            file: library.file(),
            library: Some(library.name()),
            function: None,
            kind,
            during_load: true,
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
    /// # use redis_script_runtime::redis;
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
            library: None,
            function: None,
            kind,
            during_load: false,
        }
    }

    /// The name of the binding whose call failed; for an error made by
    /// [`Error::operation`], the operation's name; for the failed load of a
    /// library by [`Library::load`](crate::Library::load) or
    /// [`load_all`](crate::load_all), which no binding made, the library's
    /// name.
    pub fn script(&self) -> &'static str {
        self.script
    }

    /// The Lua file of that binding, as written in its attribute (for a
    /// function, its library's file); empty for an error made by
    /// [`Error::operation`].
    pub fn file(&self) -> &'static str {
        self.file
    }

    /// For a `#[redis_function]` binding, the function it calls, as the
    /// library registers it (`name = "..."` of the attribute), which
    /// `FUNCTION LIST`, `SLOWLOG` and the server's own errors name; `None`
    /// for a script, a library load and an operation.
    pub fn function(&self) -> Option<&'static str> {
        self.function
    }

    /// The Redis Functions library concerned: that of a `#[redis_function]`
    /// binding, or the library whose load failed; `None` for a script and
    /// an operation.
    pub fn library(&self) -> Option<&'static str> {
        self.library
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

    /// Whether the server refused the call because a script (or function)
    /// has been running longer than its `busy-reply-threshold` (`BUSY Redis
    /// is busy running a script...`; Valkey says "Valkey is busy"). The
    /// call did not run ([`Applied::No`]): retry it after a pause, or stop
    /// the running script with [`kill_running_script`](crate::kill_running_script)
    /// if it should not have taken that long.
    ///
    /// ```
    /// # use redis_script_runtime::redis;
    /// use redis_script_runtime::{Applied, Error, ErrorKind}; // `redis_script::` in the facade
    ///
    /// let reply = redis::parse_redis_value(
    ///     b"-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n",
    /// )
    /// .unwrap();
    /// let redis::Value::ServerError(busy) = reply else { unreachable!() };
    /// let error = Error::operation("EVALSHA", ErrorKind::Redis(busy.into()));
    /// assert!(error.is_busy());
    /// assert_eq!(error.applied(), Applied::No);
    /// ```
    pub fn is_busy(&self) -> bool {
        self.code() == Some("BUSY")
    }

    /// The class of this error, for a metric's label or a counter (see
    /// [`Script::stats`](crate::Script::stats)): few enough values to count
    /// by, derived from the same facts as [`applied`](Self::applied).
    ///
    /// ```
    /// # use redis_script_runtime::redis;
    /// use redis_script_runtime::{Error, ErrorClass, ErrorKind}; // `redis_script::` in the facade
    ///
    /// let timeout = std::io::Error::from(std::io::ErrorKind::TimedOut);
    /// let error = Error::operation("EVALSHA", ErrorKind::Redis(timeout.into()));
    /// assert_eq!(error.class(), ErrorClass::Timeout);
    /// assert_eq!(error.class().as_str(), "timeout");
    /// ```
    pub fn class(&self) -> ErrorClass {
        match &self.kind {
            ErrorKind::Argument { .. } => ErrorClass::Argument,
            ErrorKind::CrossSlot { .. } => ErrorClass::CrossSlot,
            ErrorKind::Sha1Mismatch { .. } => ErrorClass::Load,
            _ if self.during_load => ErrorClass::Load,
            ErrorKind::Reply { .. } => ErrorClass::Reply,
            ErrorKind::Redis(error) => class(error, self.function.is_some()),
        }
    }

    /// Whether the failed call may have taken effect: whether its script
    /// ran, in part or in full (Redis does not roll back what a script
    /// wrote before an error). Derived from what failed, as redis-rs
    /// 1.8.1 reports it:
    ///
    /// - [`Applied::No`]: nothing of the script ran, or it ran without
    ///   writing.
    ///   - Refused before sending: [`ErrorKind::Argument`],
    ///     [`ErrorKind::CrossSlot`], a `SCRIPT LOAD` that failed in any way
    ///     ([`Script::load`](crate::Script::load), [`ErrorKind::Sha1Mismatch`],
    ///     the load of [`NoScriptFallback::Load`](crate::NoScriptFallback::Load),
    ///     after which the call's EVALSHA found no script), and redis-rs's
    ///     client-side errors (kinds `Client`, `InvalidClientConfig`,
    ///     `AuthenticationFailed`, `RESP3NotSupported`, the sentinel kinds,
    ///     `ClusterConnectionNotFound`).
    ///   - No connection: [`RedisError::is_connection_refusal`], which is
    ///     how a `ConnectionManager` reports a call made while it cannot
    ///     reconnect.
    ///   - Refused by the server before the script could write, by error
    ///     code: `BUSY` (see [`is_busy`](Self::is_busy)), `LOADING` (what a
    ///     restarted server answers while it reloads its data), `NOSCRIPT`
    ///     (the server's own message
    ///     only), `READONLY`, `OOM`, `MISCONF`, `NOREPLICAS`, `MASTERDOWN`,
    ///     `NOAUTH`, `NOPERM`, `EXECABORT`, and the cluster's `MOVED`, `ASK`,
    ///     `TRYAGAIN`, `CLUSTERDOWN`, `CROSSSLOT`. A script without a
    ///     shebang meets `OOM`, `MISCONF`, `NOREPLICAS` and `READONLY` at
    ///     its first write, which is then refused: nothing was written.
    ///   - A script stopped by `SCRIPT KILL` (`ERR Script killed by user
    ///     with SCRIPT KILL...`), which the server allows only before the
    ///     script's first write.
    /// - [`Applied::Maybe`]:
    ///   - Any other I/O error: the connection was lost or timed out after
    ///     the call may have been sent. redis-rs reports a server that went
    ///     away during a call as `UnexpectedEof` or `ConnectionReset` on a
    ///     sync `Connection` (and a call on a connection it has already
    ///     closed as `BrokenPipe`), and as `BrokenPipe` on a
    ///     `MultiplexedConnection` or `ConnectionManager`, both for the
    ///     calls in flight and for calls made on the dead connection before
    ///     the manager replaced it (never sent, but redis-rs does not tell
    ///     them apart); a timeout is `TimedOut` or `WouldBlock`
    ///     ([`RedisError::is_timeout`]), including an async connection's
    ///     response timeout and a `ConnectionManager`'s connection timeout.
    ///     A call that timed out may still run later: the server has it,
    ///     only the reply is dropped.
    ///   - Any other server error: `ERR` and other codes raised by the
    ///     script (`error()`, a failed `redis.call`, `redis.error_reply`),
    ///     which may come after writes, and a `NOSCRIPT` that the script
    ///     raised itself.
    ///   - A reply redis-rs could not parse (`Parse`), and kinds it adds
    ///     later.
    /// - [`Applied::Yes`]: [`ErrorKind::Reply`]: the script ran and
    ///   replied; only the reply did not fit the declared type.
    ///
    /// Caveats:
    ///
    /// - The server's codes are trusted: a script that raises one of the
    ///   `No` codes itself (`redis.error_reply('BUSY ...')`), or catches
    ///   such an error with `redis.pcall` and goes on writing, is misread;
    ///   so is a `#[redis_function]` whose function raises the server's own
    ///   words for a missing function (`ERR Function not found`) or a write
    ///   flag under FCALL_RO, which a function binding also recovers from by
    ///   loading its library and calling again.
    /// - redis-rs's cluster connections retry a request themselves after a
    ///   lost connection or a redirection, so there the error describes the
    ///   last attempt only, and an earlier attempt may have run the script:
    ///   on a cluster connection, read `No` from an I/O error as `Maybe`.
    ///   (A retry after a lost reply runs the script again, so there even
    ///   an `Ok` can follow two runs.) `Connection`, `MultiplexedConnection`
    ///   and `ConnectionManager` send a call once. A redirection (`MOVED`,
    ///   `ASK`) in a `ClusterPipeline`'s replies is not followed: that call
    ///   ran nowhere ([`redirected_commands`](crate::redirected_commands)).
    ///   A kept sync `ClusterConnection` whose primary failed over fails
    ///   every call made after the failover with "Connection refused" (those
    ///   did not run) until it is built anew from its `ClusterClient`; the
    ///   call in flight when the primary went down is `Maybe`, as above.
    /// - For an error made by [`Error::operation`], the same rules describe
    ///   the operation instead of a script.
    ///
    /// ```
    /// use redis_script_runtime::{Applied, Error, ErrorKind}; // `redis_script::` in the facade
    ///
    /// let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
    /// let error = Error::operation("EVALSHA", ErrorKind::Redis(refused.into()));
    /// assert_eq!(error.applied(), Applied::No);
    ///
    /// let lost = std::io::Error::from(std::io::ErrorKind::UnexpectedEof);
    /// let error = Error::operation("EVALSHA", ErrorKind::Redis(lost.into()));
    /// assert_eq!(error.applied(), Applied::Maybe);
    /// ```
    pub fn applied(&self) -> Applied {
        if self.during_load {
            return Applied::No;
        }
        match &self.kind {
            ErrorKind::Redis(error) => applied(error, self.function.is_some()),
            ErrorKind::Reply { .. } => Applied::Yes,
            ErrorKind::Argument { .. }
            | ErrorKind::CrossSlot { .. }
            | ErrorKind::Sha1Mismatch { .. } => Applied::No,
        }
    }
}

/// [`Error::applied`] for a redis-rs error, of a `#[redis_function]`
/// binding's call when `function_call`: only a function call reads the
/// server's two function refusals (a script may raise the same words after
/// writing).
fn applied(error: &RedisError, function_call: bool) -> Applied {
    use redis::ErrorKind as Kind;
    match error.kind() {
        Kind::Io if error.is_connection_refusal() => Applied::No,
        Kind::Io => Applied::Maybe,
        Kind::Server(_) | Kind::Extension => {
            let code = error.code().unwrap_or_default();
            let detail = error.detail().unwrap_or_default();
            let refused = refusals::is_refused_before_writing(code)
                || refusals::is_server_noscript(code, detail)
                || (code == "ERR" && refusals::is_killed_message(detail))
                || (function_call && code == "ERR" && refusals::is_server_function_refusal(detail));
            if refused { Applied::No } else { Applied::Maybe }
        }
        Kind::Client
        | Kind::InvalidClientConfig
        | Kind::AuthenticationFailed
        | Kind::RESP3NotSupported
        | Kind::MasterNameNotFoundBySentinel
        | Kind::NoValidReplicasFoundBySentinel
        | Kind::EmptySentinelList
        | Kind::ClusterConnectionNotFound => Applied::No,
        _ => Applied::Maybe,
    }
}

/// [`Error::class`] for a redis-rs error: the same cases as [`applied`].
pub(crate) fn class(error: &RedisError, function_call: bool) -> ErrorClass {
    use redis::ErrorKind as Kind;
    match error.kind() {
        Kind::Io if error.is_timeout() => ErrorClass::Timeout,
        Kind::Io => ErrorClass::Connection,
        Kind::Server(_) | Kind::Extension => match applied(error, function_call) {
            Applied::No => ErrorClass::Refused,
            _ => ErrorClass::Script,
        },
        _ => match applied(error, function_call) {
            Applied::No => ErrorClass::Client,
            _ => ErrorClass::Other,
        },
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.function, self.library) {
            (Some(function), Some(library)) => write!(
                f,
                "binding `{}` of function `{function}` in library `{library}` ({}): ",
                self.script, self.file
            )?,
            (None, Some(library)) => write!(f, "library `{library}` ({}): ", self.file)?,
            _ if self.file.is_empty() => write!(f, "{}: ", self.script)?,
            _ => write!(f, "script `{}` ({}): ", self.script, self.file)?,
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
                 argument must encode to exactly one (to pass several, mark the last key \
                 parameter #[variadic] for keys, or the last parameter for arguments)"
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

#[cfg(test)]
mod tests {
    use std::io;

    use redis::{ParsingError, RedisError, Value};

    use super::{Applied, Error, ErrorKind};

    fn of(error: RedisError) -> Applied {
        Error::operation("EVALSHA", ErrorKind::Redis(error)).applied()
    }

    fn io(kind: io::ErrorKind) -> Applied {
        of(io::Error::from(kind).into())
    }

    /// The error reply `resp` (`-CODE message\r\n`), as redis-rs reads it.
    fn reply(resp: &str) -> Applied {
        let value = redis::parse_redis_value(resp.as_bytes()).unwrap();
        let Value::ServerError(error) = value else {
            panic!("not an error reply: {value:?}");
        };
        of(error.into())
    }

    #[test]
    fn no_connection_is_not_applied_and_a_lost_one_may_be() {
        assert_eq!(io(io::ErrorKind::ConnectionRefused), Applied::No);
        for lost in [
            io::ErrorKind::UnexpectedEof,
            io::ErrorKind::BrokenPipe,
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::ConnectionAborted,
            io::ErrorKind::TimedOut,
            io::ErrorKind::WouldBlock,
        ] {
            assert_eq!(io(lost), Applied::Maybe, "{lost:?}");
        }
    }

    #[test]
    fn refusals_by_the_server_are_not_applied() {
        for refusal in [
            "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n",
            "-BUSY Valkey is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n",
            "-LOADING Redis is loading the dataset in memory\r\n",
            "-READONLY You can't write against a read only replica.\r\n",
            "-OOM command not allowed when used memory > 'maxmemory'.\r\n",
            "-NOSCRIPT No matching script. Please use EVAL.\r\n",
            "-NOSCRIPT No matching script.\r\n",
            "-MOVED 3999 127.0.0.1:6381\r\n",
            "-CROSSSLOT Keys in request don't hash to the same slot\r\n",
            "-CLUSTERDOWN The cluster is down\r\n",
            "-NOPERM User has no permissions to run the 'evalsha' command\r\n",
            "-ERR Script killed by user with SCRIPT KILL... script: 2c72, on @user_script:1.\r\n",
            "-ERR Script killed by user with SCRIPT KILL. script: 2c72, on @user_script:1.\r\n",
        ] {
            assert_eq!(reply(refusal), Applied::No, "{refusal}");
        }
    }

    #[test]
    fn the_servers_function_refusals_are_not_applied_for_function_calls_only() {
        // FCALL of a function no library registers, FCALL_RO of one
        // registered without `no-writes`: the same words on every server.
        for refusal in [
            "-ERR Function not found\r\n",
            "-ERR Can not execute a script with write flag using *_ro command.\r\n",
        ] {
            let Value::ServerError(error) = redis::parse_redis_value(refusal.as_bytes()).unwrap()
            else {
                panic!("not an error reply: {refusal}");
            };
            let error = RedisError::from(error);
            assert_eq!(super::applied(&error, true), Applied::No, "{refusal}");
            // A script raising the same words may have written first.
            assert_eq!(super::applied(&error, false), Applied::Maybe, "{refusal}");
            assert_eq!(reply(refusal), Applied::Maybe, "{refusal}");
        }
    }

    #[test]
    fn errors_a_script_raises_may_follow_writes() {
        for raised in [
            "-ERR user_script:1: boom script: 8290, on @user_script:1.\r\n",
            "-WRONGTYPE Operation against a key holding the wrong kind of value script: 3c34\r\n",
            "-MYCODE raised with redis.error_reply\r\n",
            // A NOSCRIPT that is not the server's own words.
            "-NOSCRIPT fake\r\n",
        ] {
            assert_eq!(reply(raised), Applied::Maybe, "{raised}");
        }
    }

    #[test]
    fn client_errors_are_not_applied_and_unparsable_replies_may_be() {
        assert_eq!(
            of((redis::ErrorKind::Client, "empty command").into()),
            Applied::No
        );
        assert_eq!(
            of(ParsingError::from("invalid first byte").into()),
            Applied::Maybe
        );
    }

    #[test]
    fn our_own_kinds() {
        let reply = ErrorKind::Reply {
            expected: "u8",
            source: ParsingError::from("300 is out of range"),
        };
        assert_eq!(Error::operation("f", reply).applied(), Applied::Yes);
        let argument = ErrorKind::Argument {
            parameter: "key",
            values: 0,
        };
        assert_eq!(Error::operation("f", argument).applied(), Applied::No);
        let keys = vec![("a".to_owned(), 15495), ("b".to_owned(), 3300)];
        let cross_slot = ErrorKind::CrossSlot { keys };
        assert_eq!(Error::operation("f", cross_slot).applied(), Applied::No);
        // SCRIPT LOAD never runs the script, even if its connection broke.
        let lost = io::Error::from(io::ErrorKind::UnexpectedEof);
        let load = Error::operation("f", ErrorKind::Redis(lost.into())).during_load();
        assert_eq!(load.applied(), Applied::No);
    }

    #[test]
    fn each_failure_has_its_class() {
        use super::ErrorClass;
        let class = |error: RedisError| Error::operation("f", ErrorKind::Redis(error)).class();
        let reply = |resp: &str| match redis::parse_redis_value(resp.as_bytes()).unwrap() {
            Value::ServerError(error) => class(error.into()),
            other => panic!("not an error reply: {other:?}"),
        };
        let io = |kind: io::ErrorKind| class(io::Error::from(kind).into());
        assert_eq!(io(io::ErrorKind::TimedOut), ErrorClass::Timeout);
        assert_eq!(io(io::ErrorKind::ConnectionRefused), ErrorClass::Connection);
        assert_eq!(io(io::ErrorKind::UnexpectedEof), ErrorClass::Connection);
        assert_eq!(reply("-BUSY Redis is busy\r\n"), ErrorClass::Refused);
        assert_eq!(reply("-NOPERM no\r\n"), ErrorClass::Refused);
        assert_eq!(reply("-ERR user_script:1: boom\r\n"), ErrorClass::Script);
        assert_eq!(reply("-MYCODE raised\r\n"), ErrorClass::Script);
        assert_eq!(
            class((redis::ErrorKind::Client, "empty command").into()),
            ErrorClass::Client
        );
        assert_eq!(
            class(ParsingError::from("invalid first byte").into()),
            ErrorClass::Other
        );
        let reply_error = ErrorKind::Reply {
            expected: "u8",
            source: ParsingError::from("300 is out of range"),
        };
        assert_eq!(
            Error::operation("f", reply_error).class(),
            ErrorClass::Reply
        );
        let argument = ErrorKind::Argument {
            parameter: "key",
            values: 0,
        };
        assert_eq!(
            Error::operation("f", argument).class(),
            ErrorClass::Argument
        );
        let keys = vec![("a".to_owned(), 15495), ("b".to_owned(), 3300)];
        let cross_slot = ErrorKind::CrossSlot { keys };
        assert_eq!(
            Error::operation("f", cross_slot).class(),
            ErrorClass::CrossSlot
        );
        // A failed SCRIPT LOAD is a load error, whatever broke.
        let lost = io::Error::from(io::ErrorKind::UnexpectedEof);
        let load = Error::operation("f", ErrorKind::Redis(lost.into())).during_load();
        assert_eq!(load.class(), ErrorClass::Load);
        // Every class has its own name, and its place in `ALL`.
        for (index, class) in ErrorClass::ALL.into_iter().enumerate() {
            assert_eq!(class.index(), index);
            assert_eq!(
                ErrorClass::ALL
                    .iter()
                    .filter(|other| other.as_str() == class.as_str())
                    .count(),
                1
            );
        }
    }

    #[test]
    fn busy_is_told_apart_from_other_codes() {
        let busy = redis::parse_redis_value(b"-BUSY Redis is busy running a script.\r\n").unwrap();
        let Value::ServerError(busy) = busy else {
            unreachable!()
        };
        assert!(Error::operation("f", ErrorKind::Redis(busy.into())).is_busy());
        let busykey = redis::parse_redis_value(b"-BUSYKEY Target key name already exists.\r\n");
        let Value::ServerError(busykey) = busykey.unwrap() else {
            unreachable!()
        };
        assert!(!Error::operation("f", ErrorKind::Redis(busykey.into())).is_busy());
    }
}
