//! `SCRIPT KILL`, and what the server answered.

use std::fmt;

use redis::{ConnectionLike, RedisResult, Value};

use crate::error::{Error, ErrorKind};

/// The name errors of [`kill_running_script`] carry.
const OPERATION: &str = "SCRIPT KILL";

/// What the server did with a [`kill_running_script`] request.
///
/// Each variant is the server's definite answer; a request that got no
/// answer (a lost connection) is an [`Error`] instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "`Unkillable` means the script is still running"]
pub enum ScriptKill {
    /// The running script was stopped (`OK`). It had not written anything
    /// (the server refuses otherwise), so nothing of it took effect; its
    /// caller gets an error whose [`applied`](Error::applied) is
    /// [`Applied::No`](crate::Applied::No).
    Killed,
    /// No script was running (`NOTBUSY`): it ended before the request
    /// arrived.
    NothingRunning,
    /// The running script has already written, so the server refuses to
    /// stop it halfway (`UNKILLABLE`), which would break its atomicity. It
    /// runs to its end while the server answers other callers with BUSY.
    /// The only way to stop it sooner is `SHUTDOWN NOSAVE`, which stops the
    /// server itself and loses every write since the last save.
    Unkillable,
}

impl fmt::Display for ScriptKill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScriptKill::Killed => "the running script was killed before it wrote anything",
            ScriptKill::NothingRunning => "no script was running",
            ScriptKill::Unkillable => {
                "the running script has already written and cannot be killed: it runs to its \
                 end, and only SHUTDOWN NOSAVE (which loses every write since the last save) \
                 stops it sooner"
            }
        })
    }
}

/// Stops the script that the server is running, if it has not written yet,
/// with `SCRIPT KILL`; see [`ScriptKill`] for the three answers.
///
/// Use it when callers get BUSY ([`Error::is_busy`]): a script has run past
/// the server's `busy-reply-threshold` (alias `lua-time-limit`, 5 s by
/// default). Send it on another connection than the one waiting for the
/// script's reply, which the server does not read until the script ends (a
/// `MultiplexedConnection` shared with that call queues it behind the call).
/// Fails with the server's error for any other answer, and with the
/// connection's error when there was no answer.
///
/// ```no_run
/// # use redis_script_runtime::redis;
/// use redis_script_runtime::{ScriptKill, kill_running_script}; // `redis_script::` in the facade
///
/// # fn main() -> Result<(), redis_script_runtime::Error> {
/// let mut admin = redis::Client::open("redis://127.0.0.1/").unwrap().get_connection().unwrap();
/// match kill_running_script(&mut admin)? {
///     ScriptKill::Killed | ScriptKill::NothingRunning => {}
///     ScriptKill::Unkillable => eprintln!("a script that already wrote is still running"),
/// }
/// # Ok(()) }
/// ```
pub fn kill_running_script(con: &mut dyn ConnectionLike) -> Result<ScriptKill, Error> {
    outcome(con.req_command(&kill_cmd()))
}

/// The async form of [`kill_running_script`].
#[cfg(feature = "aio")]
#[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
pub async fn kill_running_script_async<C: redis::aio::ConnectionLike>(
    con: &mut C,
) -> Result<ScriptKill, Error> {
    outcome(con.req_packed_command(&kill_cmd()).await)
}

fn kill_cmd() -> redis::Cmd {
    let mut cmd = redis::cmd("SCRIPT");
    cmd.arg("KILL");
    cmd
}

/// Reads the answer to SCRIPT KILL, an error reply whether redis-rs
/// returned it as an `Err` or inside the value.
fn outcome(reply: RedisResult<Value>) -> Result<ScriptKill, Error> {
    let error = match reply {
        Ok(Value::Okay) => return Ok(ScriptKill::Killed),
        Ok(Value::SimpleString(text)) if text == "OK" => return Ok(ScriptKill::Killed),
        Ok(Value::ServerError(error)) => error.into(),
        Ok(other) => {
            return Err(Error::operation(
                OPERATION,
                ErrorKind::Reply {
                    expected: "OK",
                    source: redis::ParsingError::from(format!("{other:?}")),
                },
            ));
        }
        Err(error) => error,
    };
    match error.code() {
        Some("NOTBUSY") => Ok(ScriptKill::NothingRunning),
        Some("UNKILLABLE") => Ok(ScriptKill::Unkillable),
        _ => Err(Error::operation(OPERATION, ErrorKind::Redis(error))),
    }
}

#[cfg(test)]
mod tests {
    use redis::{Value, parse_redis_value};

    use super::{ScriptKill, outcome};

    fn answer(resp: &[u8]) -> ScriptKill {
        outcome(Ok(parse_redis_value(resp).unwrap())).unwrap()
    }

    #[test]
    fn each_answer_of_the_server_is_an_outcome() {
        assert_eq!(answer(b"+OK\r\n"), ScriptKill::Killed);
        assert_eq!(
            answer(b"-NOTBUSY No scripts in execution right now.\r\n"),
            ScriptKill::NothingRunning
        );
        assert_eq!(
            answer(b"-UNKILLABLE Sorry the script already executed write commands\r\n"),
            ScriptKill::Unkillable
        );
        assert!(
            ScriptKill::Unkillable
                .to_string()
                .contains("SHUTDOWN NOSAVE")
        );
        let other = outcome(Ok(parse_redis_value(b"-ERR unknown command\r\n").unwrap()));
        assert_eq!(other.unwrap_err().code(), Some("ERR"));
        assert!(outcome(Ok(Value::Int(1))).is_err());
    }
}
