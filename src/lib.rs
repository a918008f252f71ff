//! Redis Lua scripts on disk as typed, compile-time-checked Rust functions.
//!
//! # Quick start
//!
//! Depend on this crate; it re-exports the redis-rs it is built on as
//! [`redis`], 1.x by default:
//!
//! ```toml
//! [dependencies]
//! redis-script = "0.1"
//! ```
//!
//! An application picks the redis-rs: `redis-1` (default) or `redis-2`
//! (`default-features = false, features = ["redis-2", ...]`). A library
//! depends with `default-features = false` and picks neither, leaving the
//! choice to its users; with both on, redis-rs 2.0 is used, and with
//! neither the build stops with one error that says what to write.
//! redis-rs's own features (`connection-manager`, `cluster-async`, `r2d2`,
//! `bb8`, `sentinel`, the TLS ones) are this crate's too, forwarded under
//! the same names: [redis-rs 1.x or 2.0, and features](guide::redis_rs).
//!
//! Put the scripts in files of your crate, `scripts/lock_acquire.lua`
//! beside its `Cargo.toml`:
//!
//! ```lua
#![doc = include_str!("../scripts/lock_acquire.lua")]
//! ```
//!
//! and `scripts/lock_release.lua`:
//!
//! ```lua
#![doc = include_str!("../scripts/lock_release.lua")]
//! ```
//!
//! Declare each as a function, and call it on a connection (`src/main.rs`;
//! it needs a Redis server on 127.0.0.1:6379):
//!
//! ```no_run
//! # use redis_script::redis;
//! use redis_script::redis_script;
//!
//! /// Takes the lock if nobody holds it; replies "OK", or None when it is held.
//! #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//!
//! /// Releases the lock if `token` holds it; replies whether it did.
//! #[redis_script(file = "scripts/lock_release.lua", keys = 1)]
//! pub fn release_lock(lock: &str, token: &str) -> bool;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let mut con = redis::Client::open("redis://127.0.0.1/")?.get_connection()?;
//!     let token = "9f4c2a7d1e6b4c0f8a3d5e7f9b1c2d3e";
//!     if acquire_lock("lock:report", 30_000, token).invoke(&mut con)?.is_some() {
//!         // ... the critical section ...
//!         assert!(release_lock("lock:report", token).invoke(&mut con)?);
//!     }
//!     Ok(())
//! }
//! ```
//!
//! At compile time the attribute reads `scripts/lock_acquire.lua`, computes its
//! SHA1, and generates `acquire_lock`: a function with the declared parameters
//! that returns an [`Invocation<Option<String>>`](Invocation) with its
//! arguments already encoded. A missing file, a `keys` count larger than the
//! parameter list, a misplaced `#[variadic]` or a key whose type holds several
//! values (`&[&str]`) is a compile error on the offending token, and so are
//! mistakes in the Lua itself ([the checks](guide::checks)). At run time the
//! call sends EVALSHA, recovers from NOSCRIPT in one round trip, and converts
//! the reply into the declared type, or returns an [`Error`] naming the
//! script. The `---@` lines are the script's
//! [signature](guide::lua#signatures-in-the-lua-file), checked against the
//! declaration.
//!
//! # The guide
//!
//! The [`guide`] module holds the long-form guide, one chapter per module
//! (the same text as `docs/guide/` in the repository):
//!
//! - [Checks and target servers](guide::checks): what the compiler checks
//!   in the Lua, for Redis 7.0 to 8.2 and Valkey 8.0 to 9.1.
//! - [Calling, pipelines and batches](guide::calling): sync, async,
//!   pipelines, [`Batch`], [`load_all`] at start-up.
//! - [Keys, arguments and replies](guide::parameters): variadic keys, key
//!   prefixes, replies, [`Json<T>`](Json), metadata.
//! - [Recipes](guide::recipes): the ready-made systems of [`recipes`].
//! - [Includes, headers and Redis Functions](guide::lua): `--- @include`,
//!   [`scripts!`], [`macro@redis_function`].
//! - [Where it runs](guide::where_it_runs): Valkey, Redis Cluster,
//!   replicas, restarts, Sentinel, pools.
//! - [Faults and guarantees](guide::faults): [`Error::applied`], flushes,
//!   eviction, timeouts, slow scripts, ACLs.
//! - [Observability](guide::observability): counts, spans and metrics by
//!   binding ([`observe`]).
//! - [redis-lua](guide::redis_lua): the same checks as a command.
//! - [redis-rs 1.x or 2.0, and features](guide::redis_rs): who picks
//!   the redis-rs, and redis-rs's features through this crate.
//! - [fred](guide::fred): bindings and batches on fred's clients (feature
//!   `fred`).
//! - [Security](guide::security) and [benchmarks and tests](guide::testing).
//!
//! The attribute's own arguments and what it generates are on its page:
//! [`macro@redis_script`].

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Generated code names `::redis_script::__private`, also inside this crate.
extern crate self as redis_script;

/// Lets `#[redis_script]` and `#[redis_function]` bindings stand in an
/// inherent `impl` block, as associated functions.
///
/// ```text
/// #[redis_script::bindings]
/// impl Jobs {
///     #[redis_script(file = "scripts/claim.lua", keys = 1)]
///     pub fn claim(queue: &str, worker: &str) -> Option<String>;
/// }
/// ```
///
/// Each binding becomes `Jobs::claim(...)`, which returns the same
/// [`Invocation`] as a binding at module level, and `Jobs::claim_script()`,
/// its [`Script`] (what `claim::SCRIPT` is at module level). The bindings'
/// `mod <name>`s, which an `impl` cannot hold, go in a hidden module beside
/// it (`__redis_script_Jobs_claim`); the bindings are listed by
/// [`registry::scripts`] (with [`Script::binding_path`] `my_app::jobs::Jobs::claim`)
/// and loaded by [`load_all`] as any other. A binding of a library
/// function reaches its library as `Jobs::done_script().library()`.
/// Other items of the `impl` are left as written. The guide:
/// [Bindings in an `impl` block](crate::guide::parameters#bindings-in-an-impl-block).
pub use redis_script_macros::bindings;
/// Turns a function of a Redis Functions library on disk into a typed
/// function.
///
/// ```text
/// #[redis_function(library = "<path>.lua", keys = <N> [, name = "<function>"] [, allow(<rule>, ...)] [, servers = [<server>, ...]] [, crate = "<path>"])]
/// <vis> fn <name>(<N key parameters>, <ARGV parameters> [, #[variadic] <tail>]) [-> <reply>];
/// ```
///
/// - `library`: the library's Lua file, relative to the crate's
///   `Cargo.toml`, whose first line is `#!lua name=<library>`.
/// - `name` (optional): the function as the library registers it; by
///   default the Rust function's name.
/// - `keys`, `allow(...)`, `servers`, `crate` and the parameters: as for
///   [`macro@redis_script`]; the callback's first parameter is KEYS and its
///   second ARGV.
///
/// It generates what [`macro@redis_script`] does, plus `<name>::LIBRARY`,
/// the [`Library`] the function belongs to (in a [`macro@bindings`]
/// `impl`: `Type::<name>_script().library()`). A call is FCALL, or FCALL_RO for
/// a `no-writes` function, and loads the library when the server lacks it:
/// the guide is [Redis Functions](crate::guide::lua#redis-functions).
pub use redis_script_macros::redis_function;
/// Turns a Lua script on disk into a typed function.
///
/// ```text
/// #[redis_script(file = "<path>.lua", keys = <N> [, allow(<rule>, ...)] [, servers = [<server>, ...]] [, crate = "<path>"])]
/// <vis> fn <name>(<N key parameters, the last one maybe #[variadic]>, <ARGV parameters> [, #[variadic] <tail>]) [-> <reply>];
/// ```
///
/// `#[redis_script(file = "...", keys = N)]` goes on a function declaration
/// without a body, wherever a function can stand (in a module or a function
/// body, not in an `impl` block: the binding comes with a module,
/// `name::SCRIPT`, and rustc refuses a module there with "module is not
/// supported in `trait`s or `impl`s" at the binding's name; bind at module
/// level and call the binding from a method).
///
/// - `file`: the Lua script, relative to the directory of the `Cargo.toml` of
///   the crate being compiled (`CARGO_MANIFEST_DIR`), so it works in any crate.
///   The expansion `include_str!`s the file: editing it rebuilds the crate.
/// - `keys`: how many leading parameters are KEYS; the rest are ARGV, in order.
///   Required, `keys = 0` for a script without keys.
/// - `allow(unread)`, `allow(unknown_commands)`, ... (optional): silence the
///   warning for parameters the script never reads, or accept what the
///   command and library tables may get wrong for a newer server or a
///   module: `unknown_commands`, `unknown_subcommand`, `command_arity`,
///   `command_arguments`, `wrong_type`, `unknown_member`; a comparison of a reply with nil that you keep on
///   purpose: `nil_comparison`; or, for a script that runs on one server or
///   reaches keys that share a hash tag, `undeclared_key` and
///   `value_in_keys`. Nothing else can be allowed on a binding: a reply
///   its Rust type cannot hold (`nil_reply`, `reply_shape`) or a call the
///   server refuses (`out_of_range`, `no_writes`, ...) would compile and
///   then fail (the `redis-lua` tool, where no Rust type is involved, may
///   allow more); see the checks below. A comment `-- redis-lua:
///   allow(rule)` in the Lua file does the same, for the same rules.
/// - `servers = ["redis-8.2", ...]` (optional): the servers this binding's
///   script is checked for, instead of the crate's
///   ([Target servers](crate::guide::checks#target-servers)).
/// - `crate = "path"` (optional): where this crate is, when the generated
///   code cannot reach it as `::redis_script`: a renamed dependency, or a
///   library that re-exports the macro to its users (`crate = "my_lib::redis_script"`).
///
/// Parameters take any type that implements `redis::ToRedisArgs`. Each key
/// and each ARGV parameter must encode to exactly one value, since one that
/// encodes to none or several would shift every position after it. A type
/// that visibly holds several values (a slice, a `Vec`, an array, a tuple, a
/// set, a map, or an `Option` or `Box` of one) is a compile error on the
/// parameter; byte strings (`&[u8]`, `Vec<u8>`,
/// `&[u8; N]`) are one value and welcome. What the declaration cannot show
/// (a generic parameter, an `Option` that is `None`) is checked when the call
/// is built: such a call fails with [`ErrorKind::Argument`] and sends nothing.
/// The last parameter may be marked `#[variadic]` to append any number of
/// values to ARGV (a slice, a `Vec`, a slice of pairs...):
///
/// ```
/// # use redis_script::redis_script;
/// /// Replies with its KEYS and ARGV: `["queue", "100", "a", "b", "c"]` below.
/// #[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
/// fn echo(list: &str, cap: usize, #[variadic] items: &[&str]) -> Vec<String>;
///
/// let _call = echo("queue", 100, &["a", "b", "c"]);
/// assert_eq!(echo::SCRIPT.arg_arity(), redis_script::Arity::AtLeast(1));
/// ```
///
/// The last *key* parameter (the `keys`-th) may be marked `#[variadic]` too:
/// a list of keys whose length each call decides, sent as KEYS after the
/// fixed keys, with the call's own numkeys. `keys = N` counts it as one
/// key parameter; the script then gets at least `N - 1` keys, and a KEYS
/// index past the fixed keys is no error. An empty list is a legal call
/// (numkeys counts only the fixed keys; with none at all it is 0, and a
/// cluster client sends such a call to any node). On a cluster, every key
/// must share one slot, as fixed keys must: [`Invocation::check_slots`] and
/// cluster pipelines refuse a list across slots before sending, naming each
/// key and its slot, and a cluster's own refusal carries the same detail.
///
/// ```
/// # use redis_script::redis_script;
/// /// Deletes every key given and replies how many existed.
/// #[redis_script(file = "tests/lua/delete_keys.lua", keys = 1)]
/// fn delete_keys(#[variadic] keys: &[&str]) -> i64;
///
/// let _call = delete_keys(&["{cart:7}:items", "{cart:7}:total"]);
/// assert_eq!(delete_keys::SCRIPT.key_arity(), redis_script::Arity::AtLeast(0));
/// ```
///
/// Doc comments, attributes and visibility carry over to the generated
/// function; generic parameters work as in any function. The return type is
/// the reply type (see [Replies](crate::guide::parameters#replies)); without one it is `()`.
///
///
/// # What it generates
///
/// - `fn <name>(..) -> Invocation<reply>`: builds the call; run it with
///   [`Invocation::invoke`], [`Invocation::invoke_async`] or in a pipeline
///   ([`ScriptPipeline`]).
/// - `mod <name>` with `pub static SCRIPT: Script`: the script's
///   [metadata](crate::guide::parameters#metadata) (source, SHA1, names, arity, flags), its
///   counts ([`Script::stats`]) and [`Script::load`]. The binding is also
///   listed by [`registry::scripts`] and loaded by [`load_all`].
///
/// A module cannot stand in an `impl` block: there, mark the block with
/// [`macro@bindings`], which makes each binding an associated function
/// `Type::<name>(..)` and gives its `Script` as `Type::<name>_script()`
/// ([Bindings in an `impl` block](crate::guide::parameters#bindings-in-an-impl-block)).
///
/// How the Lua file is checked: the guide's
/// [Compile-time checks of the Lua](crate::guide::checks#compile-time-checks-of-the-lua).
pub use redis_script_macros::redis_script;
/// Binds every script of a folder, each by the signature in its header.
///
/// ```text
/// scripts!("<folder>");                   // a module named after the folder
/// scripts!(<vis> mod <name> = "<folder>");
/// ```
///
/// The folder is relative to the crate's `Cargo.toml`. Each `.lua` file in
/// it (not in its subfolders) becomes a function of the module, named after
/// the file, with the header's names, types and description, and its own
/// `SCRIPT`: a binding like [`macro@redis_script`] makes, with every check.
/// A file without a header, or with one that does not parse, is a compile
/// error quoting its file and line. The guide, with the header's grammar
/// and types: [Signatures in the Lua file](crate::guide::lua#signatures-in-the-lua-file).
pub use redis_script_macros::scripts;
/// A test run on real throwaway Redis or Valkey servers, with what it asks
/// for made and handed to it; the harness is the dev-dependency
/// `redis-script-test` (`cargo add --dev redis-script-test`).
///
/// ```ignore
/// #[redis_script::test]
/// fn a_held_lock_is_refused(con: &mut redis::Connection) { ... }
///
/// #[redis_script::test(cluster, fixtures("tests/users.redis"), load_all)]
/// async fn on_a_cluster(mut con: redis::cluster_async::ClusterConnection) { ... }
/// ```
///
/// Each run gets servers of its own, started for it and killed after it;
/// `REDIS_SCRIPT_SERVERS` runs every test once per server it lists. The
/// arguments, the parameters a test can take and the fault helpers are in
/// the guide: [Testing your scripts](crate::guide::testing_scripts).
pub use redis_script_macros::test;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub use redis_script_runtime::Json;
pub use redis_script_runtime::{
    Applied, Argument, Arity, Batch, BatchReplies, Error, ErrorClass, ErrorKind, InvalidKeyPrefix,
    Invocation, KeyPrefix, Library, LibraryStatus, Loaded, NoScriptFallback, PrefixedConnection,
    Queued, SLOTS, Script, ScriptKill, ScriptPipeline, ScriptStats, hash_tag, key_slot,
    kill_running_script, load_all, observe, redirected_commands, registry,
};
#[cfg(feature = "aio")]
#[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
pub use redis_script_runtime::{kill_running_script_async, load_all_async};

#[cfg(feature = "recipes")]
#[cfg_attr(docsrs, doc(cfg(feature = "recipes")))]
pub mod recipes;

/// The guide's link definitions as rustdoc reads them, before each chapter's
/// text (see `src/guide.rs`): each label, an intra-doc link.
macro_rules! guide_links {
    () => {
        "[checks]: crate::guide::checks\n\
         [target_servers]: crate::guide::checks#target-servers\n\
         [calling]: crate::guide::calling\n\
         [batches]: crate::guide::calling#batches-a-result-per-call\n\
         [parameters]: crate::guide::parameters\n\
         [key_prefixes]: crate::guide::parameters#key-prefixes\n\
         [replies]: crate::guide::parameters#replies\n\
         [typed_json]: crate::guide::parameters#typed-json\n\
         [recipes]: crate::guide::recipes\n\
         [lua]: crate::guide::lua\n\
         [where_it_runs]: crate::guide::where_it_runs\n\
         [cluster]: crate::guide::where_it_runs#redis-cluster\n\
         [faults]: crate::guide::faults\n\
         [guarantees]: crate::guide::faults#on-bad-input\n\
         [observability]: crate::guide::observability\n\
         [redis_lua]: crate::guide::redis_lua\n\
         [redis_rs]: crate::guide::redis_rs\n\
         [fred]: crate::guide::fred\n\
         [security]: crate::guide::security\n\
         [testing]: crate::guide::testing\n\
         [testing_scripts]: crate::guide::testing_scripts\n"
    };
}

#[doc = guide_links!()]
#[doc = include_str!("../docs/guide/README.md")]
pub mod guide;

/// The redis-rs this crate is built on (1.x, or 2.0 with the feature
/// `redis-2`), for connections and pipelines.
#[cfg(not(feature = "redis-2"))]
#[cfg_attr(docsrs, doc(cfg(feature = "redis-1")))]
pub use redis;
/// The redis-rs this crate is built on (1.x, or 2.0 with the feature
/// `redis-2`), for connections and pipelines.
// An aliased `extern crate` at the root also makes it `redis` in every
// module of this crate, even with `redis-1` on too (2.0 is then the one used).
#[cfg(feature = "redis-2")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis-2")))]
pub extern crate redis2 as redis;

/// The fred this crate's feature `fred` is built on (10.x), whose clients
/// and pools run bindings (`invoke_fred`) and batches (`Batch::run_fred`).
#[cfg(feature = "fred")]
#[cfg_attr(docsrs, doc(cfg(feature = "fred")))]
pub use redis_script_runtime::fred;

/// What `#[redis_script]` expansions name; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use redis_script_runtime::__private::*;
}
