//! Autocomplete on a prefix: the first names in a sorted set that start with
//! what the user typed, found in one script call without WATCH retries.
//!
//! Names are kept in a sorted set with score 0, so Redis orders them by name.
//! To find the names starting with `abc`, the script adds two sentinel
//! members that sort just before and just after them (`abb{<id>` and
//! `abc{<id>`, see [`find_prefix_range`]), reads their ranks and the names
//! between them, and removes the sentinels again, atomically.
//!
//! # Alphabet
//!
//! Names are one or more lowercase letters `a`-`z`: the sentinels rely on `` ` ``
//! sorting just before `a` and `{` just after `z`. [`add_members`] refuses
//! anything else. A prefix with a character outside `a`-`z` matches no name.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | `members:<guild>` ([`members_key`]) | sorted set | the names, all with score 0 |
//!
//! # Guarantees
//!
//! - A search replies exactly the first [`MAX_MATCHES`] names (in order) that
//!   start with the prefix at the moment the script runs, however many
//!   searches run at once: a script runs alone, so no other search's
//!   sentinels are ever in the set while it runs.
//! - Sentinels never reach the caller: the script skips members containing
//!   `{`, and [`autocomplete_on_prefix`] filters them again.
//! - Each search removes its own sentinels before it ends: the set holds only
//!   names between calls.
//!
//! # Redis Cluster
//!
//! Each script uses one key, so it works on a cluster as is.
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use redis_script::recipes::autocomplete::{add_members, autocomplete_on_prefix};
//!
//! add_members(&mut con, "rust", &["jane", "jack", "jill", "bob"])?;
//! assert_eq!(autocomplete_on_prefix(&mut con, "rust", "ja")?, ["jack", "jane"]);
//! assert_eq!(autocomplete_on_prefix(&mut con, "rust", "j")?, ["jack", "jane", "jill"]);
//! assert!(autocomplete_on_prefix(&mut con, "rust", "x")?.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use redis::ConnectionLike;

use crate::recipes::random_token;
use crate::{Error, Invocation};

/// The most names one search replies.
pub const MAX_MATCHES: usize = 10;

/// The character sorting just before `a`.
const BEFORE_A: char = '`';
/// The character sorting just after `z`; marks sentinels.
const AFTER_Z: char = '{';

/// The sorted set of the names of `guild`.
pub fn members_key(guild: &str) -> String {
    format!("members:{guild}")
}

/// Whether `name` can be stored: one or more letters `a`-`z`.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase())
}

/// The two sentinel prefixes around the names starting with `prefix`, before
/// the random id is appended: the prefix with its last letter replaced by the
/// one before it (`` ` `` before `a`) followed by `{`, and the prefix followed
/// by `{`. `"abc"` gives `("abb{", "abc{")`, `""` gives `` ("`{", "{") ``.
///
/// `None` if `prefix` has a character outside `a`-`z`: no name starts with it.
pub fn find_prefix_range(prefix: &str) -> Option<(String, String)> {
    if !prefix.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let mut start = prefix.to_owned();
    let before_last = match start.pop() {
        // Letters are ASCII, so the previous character is one byte lower.
        Some(last) => char::from(last as u8 - 1),
        None => BEFORE_A,
    };
    start.push(before_last);
    start.push(AFTER_Z);
    Some((start, format!("{prefix}{AFTER_Z}")))
}

// The bindings, generated from the folder: each script declares its
// signature in its header (`scripts/autocomplete/*.lua`).
// `scripts::prefix_search` replies the first `limit` members between the
// sentinels `start` and `end`, which it adds and removes (see
// [`find_prefix_range`]); `scripts::add_members` adds names with score 0,
// all or none, and replies how many were new.
crate::scripts!(pub mod scripts = "scripts/autocomplete");

/// Adds `names` to `guild`; returns how many were new. Fails, adding
/// nothing, if a name is not one or more letters `a`-`z`.
pub fn add_members(
    con: &mut dyn ConnectionLike,
    guild: &str,
    names: &[&str],
) -> Result<i64, Error> {
    add_members_call(guild, names).invoke(con)
}

/// The call [`add_members`] runs, e.g. for `invoke_async`, a pipeline or
/// [`Invocation::key_prefix`](crate::Invocation::key_prefix).
pub fn add_members_call(guild: &str, names: &[&str]) -> Invocation<i64> {
    scripts::add_members(&members_key(guild), names)
}

/// The search [`autocomplete_on_prefix`] runs, with fresh sentinels, e.g. for
/// `invoke_async`; `None` if `prefix` has a character outside `a`-`z` (no
/// name matches it). Its reply already excludes sentinels.
pub fn autocomplete_call(guild: &str, prefix: &str) -> Option<Invocation<Vec<String>>> {
    let (start, end) = find_prefix_range(prefix)?;
    let id = random_token();
    Some(scripts::prefix_search(
        &members_key(guild),
        &format!("{start}{id}"),
        &format!("{end}{id}"),
        MAX_MATCHES as i64,
    ))
}

/// The first [`MAX_MATCHES`] names of `guild` that start with `prefix`, in
/// order.
pub fn autocomplete_on_prefix(
    con: &mut dyn ConnectionLike,
    guild: &str,
    prefix: &str,
) -> Result<Vec<String>, Error> {
    let Some(call) = autocomplete_call(guild, prefix) else {
        return Ok(Vec::new());
    };
    let mut names = call.invoke(con)?;
    // The script skips sentinels already; this guard keeps one from ever
    // reaching a caller.
    names.retain(|name| !name.contains(AFTER_Z));
    Ok(names)
}
