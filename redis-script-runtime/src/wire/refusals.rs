//! The servers' own words for refusing a call before its script could
//! write: error codes, and the messages that tell a server's refusal apart
//! from a script that raised the same code.
//!
//! They sit on the wire floor, below the errors and the calls, because both
//! read them: [`Error::applied`](crate::Error::applied) to answer whether a
//! failed call may have run, and the calls to decide whether loading the
//! script (or library) and calling again is the cure. A new server's
//! wording goes here, once, with the server it was read from.

use redis::{RedisResult, Value};

/// Server error codes that refuse a call before its script could write.
const REFUSED_BEFORE_WRITING: &[&str] = &[
    "BUSY",
    "LOADING",
    "READONLY",
    "OOM",
    "MISCONF",
    "NOREPLICAS",
    "MASTERDOWN",
    "NOAUTH",
    "NOPERM",
    "EXECABORT",
    "MOVED",
    "ASK",
    "TRYAGAIN",
    "CLUSTERDOWN",
    "CROSSSLOT",
];

/// Whether an error code is one the server refuses a call with before its
/// script could write (`BUSY`, `OOM`, `READONLY`, `MOVED`, ...).
pub(crate) fn is_refused_before_writing(code: &str) -> bool {
    REFUSED_BEFORE_WRITING.contains(&code)
}

/// The start of the error a script stopped by `SCRIPT KILL` fails with
/// (Redis 7.0 goes on with "...", Valkey 8.1 and 9.1 with ".").
const KILLED_MESSAGE: &str = "Script killed by user with SCRIPT KILL";

/// Whether an `ERR` detail is the server's word that `SCRIPT KILL` stopped
/// the script, which it allows only before the script wrote.
pub(crate) fn is_killed_message(detail: &str) -> bool {
    detail.trim_start().starts_with(KILLED_MESSAGE)
}

/// The start of every supported server's own NOSCRIPT message.
const NOSCRIPT_MESSAGE: &str = "No matching script.";

/// Whether an error is the server's own NOSCRIPT: it does not have the
/// script. Matched on the message, not only on the code: a script may fail
/// with an error coded NOSCRIPT (`redis.error_reply('NOSCRIPT ...')`), and
/// running it again would repeat its writes.
pub(crate) fn is_server_noscript(code: &str, detail: &str) -> bool {
    code == "NOSCRIPT" && is_server_noscript_message(detail)
}

/// Whether a NOSCRIPT detail is the server's own, not a script's. Redis
/// says `No matching script. Please use EVAL.`, Valkey `No matching
/// script.`.
fn is_server_noscript_message(detail: &str) -> bool {
    match detail.trim().strip_prefix(NOSCRIPT_MESSAGE) {
        Some(rest) => rest.is_empty() || rest == " Please use EVAL.",
        None => false,
    }
}

/// The servers' message when FCALL names no loaded function.
const FUNCTION_NOT_FOUND: &str = "Function not found";

/// Whether an `ERR` detail says that FCALL named no loaded function: its
/// library is missing, or there in a version without it.
pub(crate) fn is_function_not_found(detail: &str) -> bool {
    detail.trim() == FUNCTION_NOT_FOUND
}

/// The servers' message when FCALL_RO (or EVALSHA_RO) names a function (or
/// script) without the `no-writes` flag; Redis 7.0, Valkey 8.1 and 9.1 end
/// it with a period.
const WRITE_FLAG_UNDER_RO: &str = "Can not execute a script with write flag using *_ro command";

/// Whether an `ERR` detail says that a `_ro` call named a function (or
/// script) that may write.
pub(crate) fn is_write_flag_under_ro(detail: &str) -> bool {
    detail.trim().trim_end_matches('.') == WRITE_FLAG_UNDER_RO
}

/// Whether an `ERR` detail is the server refusing a function call before
/// running it: no such function, or a `_ro` call of one that may write.
pub(crate) fn is_server_function_refusal(detail: &str) -> bool {
    is_function_not_found(detail) || is_write_flag_under_ro(detail)
}

/// The code and message of an error reply, whether redis-rs returned it as
/// an `Err` or inside the value; `None` for any other value, and for an
/// error without a code (the connection's). A missing message is empty.
pub(crate) fn error_words(reply: &RedisResult<Value>) -> Option<(&str, &str)> {
    match reply {
        Err(error) => error
            .code()
            .map(|code| (code, error.detail().unwrap_or_default())),
        Ok(value) => error_words_in(value),
    }
}

/// The code and message of an error reply held in a value (a pipeline's
/// reply); `None` for any other value. A missing message is empty.
pub(crate) fn error_words_in(value: &Value) -> Option<(&str, &str)> {
    match value {
        Value::ServerError(error) => Some((error.code(), error.details().unwrap_or_default())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::is_server_noscript_message;

    #[test]
    fn the_noscript_message_of_each_server_is_recognised() {
        // Redis 7.0, and Valkey 8.1 and 9.1, as each sends it.
        assert!(is_server_noscript_message(
            "No matching script. Please use EVAL."
        ));
        assert!(is_server_noscript_message("No matching script."));
        // A script's own error coded NOSCRIPT is not the server's.
        assert!(!is_server_noscript_message("fake"));
        assert!(!is_server_noscript_message(
            "No matching script. Or is there?"
        ));
        assert!(!is_server_noscript_message(""));
    }
}
