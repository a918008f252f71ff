//! Redis Lua scripts on disk as typed, compile-time-checked Rust functions.
//!
//! ```no_run
//! use redis_script::redis_script;
//!
//! /// Takes the lock if nobody holds it; replies "OK", or None when it is held.
//! #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = redis::Client::open("redis://127.0.0.1/")?;
//! let mut con = client.get_connection()?;
//! let taken: Option<String> = acquire_lock("lock:report", 30_000, "4f1c...").invoke(&mut con)?;
//! # Ok(()) }
//! ```
//!
//! At compile time the attribute reads `scripts/lock_acquire.lua`, computes its
//! SHA1, and generates `acquire_lock`: a function with the declared parameters
//! that returns an [`Invocation<Option<String>>`](Invocation) with its
//! arguments already encoded. A missing file, a `keys` count larger than the
//! parameter list or a misplaced `#[variadic]` is a compile error on the
//! offending token. At run time the call sends EVALSHA, recovers from NOSCRIPT
//! in one round trip, and converts the reply into the declared type, or
//! returns an [`Error`] naming the script.
//!
//! # The attribute
//!
//! `#[redis_script(file = "...", keys = N)]` goes on a function declaration
//! without a body, at module level.
//!
//! - `file`: the Lua script, relative to the directory of the `Cargo.toml` of
//!   the crate being compiled (`CARGO_MANIFEST_DIR`), so it works in any crate.
//!   The expansion `include_str!`s the file: editing it rebuilds the crate.
//! - `keys`: how many leading parameters are KEYS; the rest are ARGV, in order.
//!   Required, `keys = 0` for a script without keys.
//!
//! Parameters take any type that implements [`redis::ToRedisArgs`]. Each key
//! and each ARGV parameter must encode to exactly one value, since one that
//! encodes to none (`Option::None`) or several (a tuple) would shift every
//! position after it; such a call fails with [`ErrorKind::Argument`] and sends
//! nothing. The last parameter may be marked `#[variadic]` to append any number
//! of values to ARGV (a slice, a `Vec`, a slice of pairs...):
//!
//! ```
//! # use redis_script::redis_script;
//! /// Replies with its KEYS and ARGV: `["queue", "100", "a", "b", "c"]` below.
//! #[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
//! fn echo(list: &str, cap: usize, #[variadic] items: &[&str]) -> Vec<String>;
//!
//! let _call = echo("queue", 100, &["a", "b", "c"]);
//! assert_eq!(echo::SCRIPT.args(), redis_script::Arity::AtLeast(1));
//! ```
//!
//! Doc comments, attributes and visibility carry over to the generated
//! function; generic parameters work as in any function. The return type is
//! the reply type (see below); without one it is `()`.
//!
//! # Running a call
//!
//! | method | on | sends |
//! |---|---|---|
//! | [`Invocation::invoke`] | [`redis::ConnectionLike`] (`Connection`, pooled connections) | EVALSHA; after NOSCRIPT one more round trip |
//! | [`Invocation::invoke_async`] | [`redis::aio::ConnectionLike`] (`MultiplexedConnection`, `ConnectionManager`) | the same, async |
//! | [`ScriptPipeline::eval_script`] | [`redis::Pipeline`], plain or `.atomic()` | EVAL, which cannot fail with NOSCRIPT halfway |
//! | [`Script::load`] | [`redis::ConnectionLike`] | SCRIPT LOAD, to warm a server |
//!
//! A script is missing from the server's cache after a restart, a `SCRIPT
//! FLUSH` or a failover. [`invoke`](Invocation::invoke) then recovers in
//! exactly one more round trip and never returns the NOSCRIPT error: by
//! default it sends EVAL with the full source (which caches the script again);
//! with [`.on_noscript(NoScriptFallback::Load)`](NoScriptFallback::Load) it
//! sends SCRIPT LOAD and EVALSHA together in one pipelined round trip, which
//! keeps the script loaded rather than EVAL-cached (EVAL-cached scripts can be
//! evicted on newer Redis and Valkey) where the deployment allows SCRIPT LOAD.
//! For comparison, redis-rs's `Script::invoke` spends two more round trips.
//!
//! ```no_run
//! # use redis_script::redis_script;
//! use redis_script::ScriptPipeline;
//! # #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! # pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let client = redis::Client::open("redis://127.0.0.1/")?;
//! # let mut con = client.get_connection()?;
//! let mut pipe = redis::pipe();
//! pipe.atomic();
//! pipe.eval_script(&acquire_lock("lock:a", 10_000, "token"))?;
//! pipe.incr("lock:a:attempts", 1);
//! let (taken, attempts): (Option<String>, i64) = pipe.query(&mut con)?;
//! # Ok(()) }
//! ```
//!
//! # Replies
//!
//! Redis converts what the script returns into a reply, and the declared
//! return type receives it. On RESP2 and RESP3 connections alike:
//!
//! | Lua returns | Rust type | gets |
//! |---|---|---|
//! | `nil`, `false`, nothing (falling off the end) | `Option<T>` | `None` |
//! | `false` / `true` | `bool` | `false` / `true` |
//! | `true` | `i64` and other integers | `1` |
//! | a number | `i64`, `u64`, `usize`, ... | the number, floats truncated toward zero (`3.7` gives `3`) |
//! | a string | `String`, `Vec<u8>` | the string (`String` fails on invalid UTF-8) |
//! | a table (array) | `Vec<T>`, a tuple | the elements up to the first `nil` |
//! | a table of key/value pairs, flat | `HashMap<K, V>` | the pairs |
//! | `{ok = "X"}`, `redis.status_reply("X")` | `String` | `"X"` |
//! | `{err = "X"}`, `redis.error_reply("CODE msg")`, `error("msg")` | any | `Err` with [`ErrorKind::Redis`]; [`Error::code`] is `CODE` |
//! | anything | `()` | discarded |
//! | anything | [`redis::Value`] | the reply exactly as the server sent it |
//!
//! Any other [`redis::FromRedisValue`] type works as it does in redis-rs. A
//! reply that does not fit the declared type is an `Err` with
//! [`ErrorKind::Reply`] naming the script and the type, never a panic. One
//! exception comes from redis-rs: an integer reply outside the range of a
//! narrower declared integer type is cast with `as` (`-1` into `u32` gives
//! `4294967295`); declare `i64` where a script can return such values.
//!
//! A script that calls `redis.setresp(3)` returns booleans as RESP3 booleans
//! on a RESP3 connection; `Option<T>` and `bool` treat those like any other
//! Lua false. One case cannot be told apart: after `redis.setresp(3)`, a Lua
//! `false` reaches a RESP2 connection as integer `0`, so `Option<i64>` sees
//! `Some(0)` (and `bool` correctly sees `false`).
//!
//! # Errors
//!
//! Every failure is an [`Error`] whose [`script`](Error::script) names the
//! binding and whose [`kind`](Error::kind) says what happened: a server or
//! connection error (including errors the script raised), a reply that does
//! not fit, or a parameter that did not encode to one value. `Error` converts
//! into [`redis::RedisError`], so `?` works in functions returning
//! `redis::RedisResult`.
//!
//! # Metadata
//!
//! Each binding `foo` comes with a module `foo` holding `foo::SCRIPT`, a
//! `&'static` [`Script`]: name, file, source, SHA1, KEYS and ARGV names,
//! arity and declared reply type, available without building a call, e.g. to
//! preload every script of an application with [`Script::load`].
//!
//! # Features
//!
//! - `tokio-comp` (default): `invoke_async` and `Script::load_async`, on
//!   redis-rs's tokio support.
//! - `smol-comp`: the same on redis-rs's smol support.
//!
//! Without either, everything else works on synchronous connections.

#![warn(missing_docs)]

// Generated code names `::redis_script::__private`, also inside this crate.
extern crate self as redis_script;

/// Turns a Lua script on disk into a typed function; see the [crate docs](crate).
pub use redis_script_macros::redis_script;
pub use redis_script_runtime::{
    Arity, Error, ErrorKind, Invocation, NoScriptFallback, Script, ScriptPipeline,
};

#[cfg(feature = "recipes")]
pub mod recipes;

/// The redis-rs this crate is built on, for connections and pipelines.
pub use redis;

/// What `#[redis_script]` expansions name; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use redis_script_runtime::__private::*;
}
