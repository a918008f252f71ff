//! Ready-made systems built on Lua scripts, each a typed API over
//! `#[redis_script]` bindings of the scripts in `scripts/`.
//!
//! | system | module | what it guarantees |
//! |---|---|---|
//! | lock | [`lock`] | one holder at a time, always with an expiry; only the holder releases or extends |
//! | counting semaphore | [`semaphore`] | at most `limit` holders, timed out by the server's clock |
//! | status messages | [`status`] | a post and its counters in one round trip |
//! | autocomplete | [`autocomplete`] | prefix matches from a sorted set, without WATCH retries |
//! | marketplace | [`marketplace`] | a purchase moves the item and the funds together, or not at all |
//! | sharded list | [`sharded_list`] | a list spread over small shards, with blocking pops |
//! | capped leaderboard | [`leaderboard`] | the top N members under a score ceiling |
//! | red envelope | [`red_envelope`] | each envelope to at most one user, each user at most one envelope |
//! | de-duplication | [`dedup`] | exactly one caller is first for an id, until it expires |
//!
//! # Errors
//!
//! Every method returns [`crate::Error`], whatever failed: a script call
//! (the error names the binding and its Lua file), or a plain command or a
//! check of the recipe itself, made with [`Error::operation`], whose
//! [`script`](Error::script) names the command and the method, e.g.
//! `"ZRANGE in Leaderboard::top"`, and whose [`file`](Error::file) is empty.
//!
//! # Key prefixes
//!
//! Every recipe runs in a namespace of its own under a [`KeyPrefix`](crate::KeyPrefix)
//! (see [Key prefixes](crate::guide::parameters#key-prefixes)), which reaches every key it uses,
//! including the keys it builds itself:
//!
//! - [`Lock`](lock::Lock), [`Semaphore`](semaphore::Semaphore),
//!   [`Leaderboard`](leaderboard::Leaderboard), [`Dedup`](dedup::Dedup),
//!   [`RedEnvelopes`](red_envelope::RedEnvelopes) and
//!   [`ShardedList`](sharded_list::ShardedList) take it with
//!   `with_key_prefix`, which prefixes the keys they hold, so their script
//!   calls, their plain commands (`ZRANGE`, `LLEN`, `GET`, `BLPOP`, ...)
//!   and their `*_call` invocations all use the prefixed keys.
//! - The recipes made of free functions ([`status`], [`autocomplete`],
//!   [`marketplace`]) pass every key in KEYS: run their `*_call` invocations
//!   (such as [`autocomplete::add_members_call`]) with
//!   [`Invocation::key_prefix`](crate::Invocation::key_prefix) or through a
//!   [`PrefixedConnection`](crate::PrefixedConnection). The status script
//!   names the status hash after its KEYS\[2\], so the hash gets the prefix
//!   too; read it back with [`status::get_prefixed_status`].
//! - The one recipe whose scripts build keys from ARGV is the sharded list
//!   (its shard keys): prefix it with `ShardedList::with_key_prefix` only,
//!   never per call, which would leave its shards outside the namespace.
//!
//! # Bindings
//!
//! Each recipe's `#[redis_script]` bindings are public, for callers that
//! need the plain call; their names end in `_script` (`acquire_lock_script`),
//! while the methods and functions built on them have plain names.

use std::time::Duration;

use redis::{Cmd, ConnectionLike, FromRedisValue, ParsingError, RedisError, Value};

use crate::{Error, ErrorKind, Script};

pub mod autocomplete;
pub mod dedup;
pub mod leaderboard;
pub mod lock;
pub mod marketplace;
pub mod red_envelope;
pub mod semaphore;
pub mod sharded_list;
pub mod status;

mod retry;

/// Every script the recipes use, e.g. to preload them all with
/// [`Script::load`]: the recipes' part of [`registry::scripts`](crate::registry::scripts).
pub fn scripts() -> impl Iterator<Item = &'static Script> {
    crate::registry::scripts().filter(|script| {
        script
            .binding_path()
            .strip_prefix(module_path!())
            .is_some_and(|rest| rest.starts_with("::"))
    })
}

/// A random 128-bit identifier as 32 hex digits, for lock and semaphore tokens.
///
/// Drawn from the operating system's randomness (`getrandom`), so tokens are
/// unique and unpredictable to other clients: a client that does not hold
/// the token cannot guess it to release or extend someone else's lock.
///
/// # Panics
///
/// If the operating system cannot provide randomness, which on the systems
/// Redis clients run on means a broken machine (the standard library's
/// hash maps fail the same way).
pub fn random_token() -> String {
    let mut bytes = [0; 16];
    getrandom::fill(&mut bytes).expect("the operating system's randomness is unavailable");
    format!("{:032x}", u128::from_be_bytes(bytes))
}

/// Runs `cmd`, a plain command of a recipe, and converts its reply;
/// `operation` names the command and the method in the error, e.g.
/// `"ZRANGE in Leaderboard::top"`.
pub(crate) fn query<T: FromRedisValue>(
    operation: &'static str,
    cmd: &Cmd,
    con: &mut dyn ConnectionLike,
) -> Result<T, Error> {
    let reply = con
        .req_command(cmd)
        .and_then(Value::extract_error)
        .map_err(|error| Error::operation(operation, ErrorKind::Redis(error)))?;
    T::from_redis_value(reply).map_err(|source| reply_error::<T>(operation, source))
}

/// A reply of `operation` that does not convert into `T`.
pub(crate) fn reply_error<T>(operation: &'static str, source: ParsingError) -> Error {
    let expected = std::any::type_name::<T>();
    Error::operation(operation, ErrorKind::Reply { expected, source })
}

/// A failure the recipe itself detected, e.g. a value it refuses to send.
pub(crate) fn refused(operation: &'static str, problem: &'static str, detail: String) -> Error {
    let error = RedisError::from((redis::ErrorKind::Client, problem, detail));
    Error::operation(operation, ErrorKind::Redis(error))
}

/// `{name}`: the hash tag that keeps every key of one named system (a
/// sharded list, a red envelope campaign) in one Redis Cluster slot.
///
/// # Panics
///
/// If `name` is empty or starts with `}`: the tag would be empty, which a
/// cluster does not take for a tag, and the keys would spread over slots.
pub(crate) fn slot_tag(what: &str, name: &str) -> String {
    assert!(
        !name.is_empty() && !name.starts_with('}'),
        "a {what} name must be non-empty and not start with `}}`, so that it is a hash tag: {name:?}"
    );
    format!("{{{name}}}")
}

/// `duration` in whole milliseconds, rounded up so that a positive duration
/// never becomes 0 (which the server rejects, or treats as already expired);
/// saturates at `u64::MAX`.
pub(crate) fn millis(duration: Duration) -> u64 {
    let millis = duration.as_nanos().div_ceil(1_000_000);
    u64::try_from(millis).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_tags_keep_a_systems_keys_in_one_slot() {
        for name in ["jobs", "{x}", "a}b", "x{y}z"] {
            let tag = slot_tag("test", name);
            let first = format!("{tag}:first");
            let other = format!("envelope:{tag}:pending");
            assert_eq!(
                crate::key_slot(first.as_bytes()),
                crate::key_slot(other.as_bytes()),
                "{name}"
            );
        }
        assert!(std::panic::catch_unwind(|| slot_tag("test", "")).is_err());
        assert!(std::panic::catch_unwind(|| slot_tag("test", "}x")).is_err());
    }

    #[test]
    fn millis_round_up_and_saturate() {
        assert_eq!(millis(Duration::ZERO), 0);
        assert_eq!(millis(Duration::from_nanos(1)), 1);
        assert_eq!(millis(Duration::from_micros(1500)), 2);
        assert_eq!(millis(Duration::from_millis(50)), 50);
        assert_eq!(millis(Duration::MAX), u64::MAX);
    }

    #[test]
    fn tokens_are_128_random_bits_in_hex() {
        let tokens: std::collections::HashSet<String> =
            (0..10_000).map(|_| random_token()).collect();
        assert_eq!(tokens.len(), 10_000, "no token repeats");
        for token in &tokens {
            assert_eq!(token.len(), 32, "{token}");
            assert!(
                token
                    .bytes()
                    .all(|byte| byte.is_ascii_hexdigit() && !byte.is_ascii_uppercase())
            );
        }
        // Every digit position takes many values: no position is fixed, as
        // it would be with a counter or a truncated source.
        for position in 0..32 {
            let digits: std::collections::HashSet<u8> = tokens
                .iter()
                .map(|token| token.as_bytes()[position])
                .collect();
            assert!(digits.len() > 8, "digit {position}: {digits:?}");
        }
    }
}
