//! Redis Lua scripts on disk as typed, compile-time-checked Rust functions.
//!
//! # Quick start
//!
//! Depend on this crate and on the redis-rs it is built on (for redis-rs
//! 2.0, see [redis-rs 1.x or 2.0](#redis-rs-1x-or-20)):
//!
//! ```toml
//! [dependencies]
//! redis-script = "0.1"
//! redis = "1.8"
//! ```
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
//! mistakes in the Lua itself. At run time the call sends EVALSHA, recovers
//! from NOSCRIPT in one round trip, and converts the reply into the declared
//! type, or returns an [`Error`] naming the script. The `---@` lines are the
//! script's [signature](#signatures-in-the-lua-file), checked against the
//! declaration.
//!
//! # What is here
//!
//! - [The attribute](macro@redis_script): keys, arguments, variadic tails.
//! - [Compile-time checks of the Lua](#compile-time-checks-of-the-lua):
//!   syntax, globals, commands, KEYS/ARGV, nil and reply shapes.
//! - [Redis Functions](#redis-functions): `#[redis_function]`, FCALL with
//!   library recovery.
//! - [Shared Lua (includes)](#shared-lua-includes): `--- @include`.
//! - [Signatures in the Lua file](#signatures-in-the-lua-file), and
//!   [`scripts!`] for a folder.
//! - [Target servers](#target-servers): Redis 7.0 to 8.2, Valkey 8.0 to 9.1.
//! - [Running a call](#running-a-call): sync, async, pipelines.
//! - [Where it runs](#where-it-runs): clusters, replicas, pools, restarts.
//! - [Replies](#replies) and [Typed JSON](#typed-json).
//! - [Errors](#errors), [Security](#security), [Metadata](#metadata).
//! - [Deploying every script at start-up](#deploying-every-script-at-start-up).
//! - [Observability](observe): counts per script, spans (`tracing`) and
//!   metrics (`metrics`), named by binding.
//! - [Recipes](recipes): locks, semaphores, queues, leaderboards, ...
//! - [Features](#features) and [redis-rs 1.x or 2.0](#redis-rs-1x-or-20).
//!
//! # The attribute
//!
//! `#[redis_script(file = "...", keys = N)]` goes on a function declaration
//! without a body. Its arguments, what each parameter may be, and what it
//! generates are on the attribute's own page: [`macro@redis_script`].
//!
//! # Compile-time checks of the Lua
//!
//! The attribute parses every script as the Lua 5.1 that Redis 7 runs, and
//! turns the mistakes that otherwise reach production into compile errors
//! that quote the Lua file, line and column, pointing at the Rust token they
//! concern. Each check is conservative: where the text of the script does not
//! settle a question (a computed index or command name, a shadowed name, a
//! value returned by a function), it stays silent.
//!
//! 1. **Syntax**, with Lua's own message; the parser's verdict equals Redis's
//!    `SCRIPT LOAD` (a differential test checks thousands of scripts):
//!    ```text
//!    error: Lua syntax error: ')' expected near '...'
//!      --> scripts/sharded_pop.lua:6:41
//!     6 | if not ret or redis.call('llen', KEYS[1]...shard) == 0 then
//!       |                                         ^^^
//!       = note: `...` is the vararg expression; concatenation is `..`
//!    ```
//! 2. **KEYS/ARGV arity**: a literal `KEYS[n]` must be within `keys`, a
//!    literal `ARGV[n]` within the ARGV parameters (no upper bound with a
//!    `#[variadic]` tail, nor for KEYS with a `#[variadic]` key list). The
//!    error points at `keys = N` (or at the function
//!    for ARGV). A dynamic use (`KEYS[i]`, `#ARGV`, `unpack(ARGV)`, passing
//!    the table on) turns the check off for that table. A declared key or
//!    argument that a script reading its table only by literal index never
//!    reads is a **warning** at the parameter; `allow(unread)` in the
//!    attribute silences it for that binding (for keys passed on purpose,
//!    e.g. for cluster slot routing):
//!    ```text
//!    error: `KEYS[2]` is outside the 1 key(s) the binding declares
//!      --> scripts/get_second.lua:2:26
//!     2 | return redis.call('GET', KEYS[2])
//!       |                          ^^^^^^^
//!       = note: KEYS has indexes 1 to 1 (`keys = 1`); raise `keys`, or read the value from ARGV
//!    ```
//! 3. **Globals**: reading a name that is neither a local nor a member of
//!    Redis 7's script environment, and creating a global (an assignment to
//!    an undeclared name, `function f()` at top level, writing into `string`
//!    or `redis`), with a "did you mean" that also looks at your locals:
//!    ```text
//!    error: `luckMoney` is not a global of the script sandbox of Redis 7.0.15, so reading it fails at run time
//!      --> scripts/grab.lua:6:8
//!     6 |     if luckMoney then
//!       |        ^^^^^^^^^
//!       = note: did you mean the local `lunkMoney`?
//!    ```
//! 4. **Nil returns**: a script that can end without a value, `return nil`,
//!    or return what can be nil (`redis.call('GET', ...)`, a comparison)
//!    where the declared type cannot hold it. `Option<_>`, `()` and
//!    `redis::Value` hold anything; `bool` holds a Lua `false` but not a nil;
//!    `String`, integers and floats hold neither; other types are not checked:
//!    ```text
//!    error: the script can end here without `return`, replying nil, but the declared return type cannot hold nil
//!      --> scripts/get.lua:3:1
//!     3 | if value then
//!       | ^^^^^^^^^^^^^
//!       = note: declare the return type as `Option<...>`, or return a value on every path
//!    ```
//! 5. **Flags**: the Redis 7 shebang (`#!lua flags=no-writes,allow-oom`) is
//!    read as Redis reads it; an unknown flag is an error. A `no-writes`
//!    script runs with EVALSHA_RO / EVAL_RO, so it can run on replicas
//!    ([`Script::is_read_only`]).
//! 6. **Redis commands**: `redis.call`/`redis.pcall` with a literal name
//!    that Redis does not know, a wrong number of arguments, a command Redis
//!    forbids in scripts (`noscript`, e.g. `CONFIG GET`), or a write command
//!    in a `no-writes` script:
//!    ```text
//!    error: `config|get` cannot run inside a script: Redis flags it `noscript` ("This Redis command is not allowed from script")
//!      --> scripts/sharded_push.lua:2:33
//!       = note: run it from the client, and pass what the script needs in ARGV
//!    ```
//! 7. **Library members**: `redis.calll`, `string.formatt`, and names from
//!    newer Lua such as `table.unpack` are errors with a suggestion:
//!    ```text
//!    error: `table.unpack` does not exist in Redis's Lua (5.1)
//!      --> scripts/mget.lua:2:33
//!       = note: Lua 5.1: use the global unpack
//!    ```

//! 8. **Reply shapes**: the shapes a script can reply (an integer, a
//!    string, a status, an array, nil, a double), when every `return` of
//!    the script settles one, against what the declared type holds as
//!    redis-rs converts it. Refused only when the type holds none of them:
//!
//!    | declared type | holds |
//!    |---|---|
//!    | integers | an integer, a double, a string or status whose text is an integer (the status `OK` never is) |
//!    | floats | an integer, a double, a string or status whose text is a number (not `OK`) |
//!    | `String` | an integer, a string, a status, a double |
//!    | `bool` | an integer, nil, the status `OK`, a string or status `"0"`, `"1"`, `"true"`, `"false"` |
//!    | `Vec<T>` | an array whose elements `T` holds, a string `T` holds (one element; any for `Vec<u8>`), nil |
//!    | tuples `(A, B, ...)` | an array of exactly as many elements, each held by its type |
//!    | `HashSet`, `BTreeSet`, `HashMap`, `BTreeMap` | an array, nil |
//!    | `Json<T>` | a string, a status |
//!    | `Option<T>` | nil, and what `T` holds |
//!    | `()`, `redis::Value`, your own types, generics | anything (not checked) |
//!
//!    A text or a length counts only where the script spells it out (a
//!    literal, `redis.status_reply('OK')`, a table literal returned
//!    directly); `"true"`/`"false"` are `bool`s to redis-rs 2.0 only, and
//!    the check refuses only what both 1.x and 2.0 refuse.
//!
//!    What settles a shape: literals (`1`, `'x'`, `true` is 1, `false` and
//!    `nil` are nil), tables (`{ok = ...}` a status, `{err = ...}` an error,
//!    `{double = ...}` a double (on RESP2, the string of its text), RESP3's
//!    `{big_number = ...}`, `{verbatim_string = ...}`, `{map = ...}` and
//!    `{set = ...}` not settled, any other an array, also when built in a
//!    local and filled by position or `table.insert`; a local table given
//!    a named or computed field after its declaration is not settled),
//!    Redis commands with a fixed
//!    reply returned directly (`INCR` an integer, `GET` a string or nil,
//!    `HGETALL` an array, `SET` with literal options and without
//!    `NX`/`XX`/`GET` the status `OK`, `HMSET` `OK`, `SMISMEMBER` one
//!    integer per member, ...), `tonumber`,
//!    `tostring`, `cjson.encode`, `string.*`, `..`, `#t`, arithmetic and
//!    comparisons, and locals declared once and never assigned again.
//!    Anything else (a function's result, `a and b`, a command whose reply
//!    depends on its arguments) leaves the shapes open, and the check is
//!    silent; errors (`error()`, `redis.error_reply`) are no replies to
//!    hold. Accepted: `return redis.call('GET', KEYS[1])` as `Vec<String>`
//!    (a string is one element), `return {}` or `return 1` as `i64` (one of
//!    them fits). Refused:
//!    ```text
//!    error: the script replies an integer, which the declared return type cannot hold
//!      --> tests/ui/lua/shapes/counter.lua:2:1
//!     2 | return redis.call('INCR', KEYS[1])
//!       | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
//!       = note: declare a type that holds it, e.g. `i64`
//!    ```
//!    and "the script replies an array, which the declared return type
//!    cannot hold" for `-> i64` over `HGETALL`, "the script replies an
//!    integer or the status "DONE", ..." for a map over `return 0` / `return {ok = 'DONE'}`,
//!    "the script replies the string \"locked\" or the string \"free\", ..." for
//!    `-> bool`, `-> i64` or `-> Vec<i64>` over `return 'locked'` / `return 'free'`.
//!    Every binding of `scripts/`, `tests/lua/` and the idiomatic corpus
//!    (`tests/integration/idiomatic.rs`) compiles with it. A command whose
//!    last argument expands (`unpack(ARGV)`) may carry options that change
//!    its reply, so its shape is left open.
//! 9. **Comparing a reply with nil** (`nil_comparison`): `local v =
//!    redis.call('GET', KEYS[1]); if v == nil then` never takes the branch,
//!    because a nil reply reaches Lua as `false`; a command that can reply
//!    nil compared with `nil` (`==` or `~=`, either side) is an error whose
//!    note says to write `if not v then`. Silent after `redis.setresp(3)`,
//!    where nil stays nil, and for values that do not come from a command.
//!    The value is followed through locals, `unpack` (HMGET's missing
//!    fields arrive as `false` too), `pcall`, aliases of `redis.call` and
//!    local functions.
//! 10. **Keys that do not come from KEYS** (`undeclared_key`, a warning):
//!    `redis.call('HGET', 'job:' .. ARGV[1], 'state')` works on one server,
//!    but Redis Cluster and proxies route a script by its KEYS, so there
//!    the key may live on another node. A key built on a KEYS element
//!    (`KEYS[1] .. ':meta'`) or on a namespace passed in ARGV is in the
//!    declared keys' slot when that part carries their hash tag, and is
//!    said only for a crate whose scripts run on a cluster:
//!    ```toml
//!    [package.metadata.redis-script]
//!    cluster = true
//!    ```
//!    which also makes the first kind an error.
//! 11. **Values passed in KEYS** (`value_in_keys`, a warning; an error with
//!    `cluster = true`): a `KEYS[n]` that a command takes as a value (a TTL,
//!    a token) and never as a key is hashed like a key by a cluster.
//!
//! The sandbox and command tables come from redis-server 7.0.15,
//! valkey-server 8.1.8 and valkey-server 9.1.2, and the test suite checks
//! each against the real server; a script that relies on a command or global that no targeted
//! server has is reported as unknown.
//!
//! # Redis Functions
//!
//! A function of a Redis Functions library (`FUNCTION LOAD`, Redis 7 and
//! Valkey) binds the same way, with `#[redis_function]`:
//!
//! ```
//! use redis_script::redis_function;
//!
//! /// Books a seat; replies the seats left, or `None` when sold out.
//! #[redis_function(library = "examples/lua/inventory.lua", name = "inventory_book", keys = 1)]
//! fn book_seat(seats: &str, event: &str) -> Option<i64>;
//!
//! assert_eq!(book_seat::SCRIPT.function_name(), Some("inventory_book"));
//! assert_eq!(book_seat::LIBRARY.name(), "inventory");
//! ```
//!
//! - `library`: the library's Lua file, whose first line is `#!lua
//!   name=<library>`; `name`: the function as the library registers it
//!   (default: the Rust function's name); `keys`, `allow(...)` and `crate`
//!   as for `#[redis_script]`.
//! - At compile time the library is read as FUNCTION LOAD reads it: its
//!   `#!lua name=` line; the functions it registers, with
//!   `redis.register_function('name', callback)` or the table form
//!   (`function_name`, `callback`, `flags`, `description`), unknown flags and
//!   arguments refused; its top-level code, which runs while it loads, where
//!   only `redis.register_function`, `redis.log`, `redis.LOG_*` and
//!   `redis.REDIS_VERSION(_NUM)` exist (reading anything else, `redis.call`
//!   included, fails the load). The binding's function must be registered
//!   (else the error suggests the closest name), and its callback gets every
//!   check a script gets, in the environment functions have: no `KEYS` or
//!   `ARGV` globals, the callback's first parameter is KEYS and its second
//!   ARGV, and a function registered `no-writes` may not write.
//! - A call is `FCALL`, or `FCALL_RO` for a `no-writes` function (which
//!   replicas serve). When the server answers "Function not found" (a new
//!   server, a `FUNCTION FLUSH`, or a version of the library without the
//!   function), or refuses the FCALL_RO of a `no-writes` function because
//!   its version of the library registers that function without the flag
//!   ("Can not execute a script with write flag using \*_ro command", an
//!   older build's version), the call loads its library with `FUNCTION LOAD
//!   REPLACE` and retries, pipelined: one more round trip, counted as a
//!   recovery (see [`observe`]). Both refusals come before anything runs.
//!   If the server refuses the library (another library registers a
//!   function of the same name, or an ACL denies `FUNCTION LOAD`), the call
//!   fails with that error ([`ErrorClass::Load`]), and nothing ran.
//! - Every error of a function binding names the Rust binding, the
//!   function as the library registers it and the library
//!   ([`Error::script`], [`Error::function`], [`Error::library`]):
//!   ``binding `book_seat` of function `inventory_book` in library
//!   `inventory` (examples/lua/inventory.lua): ...``.
//! - A library file may `--- @include` shared Lua after its `#!lua name=`
//!   line, as a script may (see [Shared Lua](#shared-lua-includes)): the
//!   composed text is the code FUNCTION LOAD sends and
//!   [`Library::status`] compares.
//! - `foo::LIBRARY` is the [`Library`]; [`Library::status`] tells in one
//!   round trip whether the server has exactly this version
//!   ([`LibraryStatus::Current`]), none ([`LibraryStatus::Missing`]) or
//!   another ([`LibraryStatus::Other`]), by comparing the code.
//! - [`load_all`] loads every library compiled in (on a cluster, through
//!   redis-rs, on every primary), and refuses two different libraries of one
//!   name. In a pipeline a function call is queued as FCALL without loading
//!   its library (see [`ScriptPipeline`]): deploy with `load_all` first.
//!
//! A rolling deploy of two versions: while both builds run, the server holds
//! whichever version was loaded last. A call of a function that version
//! has runs it, whichever build calls (the tests show a function changed
//! between versions answering with the server's version); a call of a
//! function it lacks loads the caller's version, which then replaces the
//! other for everyone. So keep functions that both versions have
//! compatible, add new functions rather than changing old ones, and give a
//! library with incompatible changes a new name (`#!lua name=shop_v2`), so
//! that both versions live side by side until the old build is gone.
//!
//! Adding `no-writes` to a function is such a version mismatch: the new
//! build calls it with FCALL_RO, which the server refuses while it holds the
//! old version, so the call loads the new one, as for a missing function.
//! The old build's FCALL of the same function works with either version
//! (FCALL runs `no-writes` functions too). If each build's version lacks
//! something the other build calls (a function, or a flag), the builds
//! replace each other's version as they call, one extra round trip each
//! time. No call runs twice: each runs once in its own build's version,
//! unless the other build's load lands between its load and its retry
//! (rare: the two go in one round trip), and then it runs in that version
//! or, refused again, fails with [`Applied::No`]; no call reloads more than
//! once. It stops when the old build is gone. Removing `no-writes` needs nothing: FCALL runs a
//! function with or without it.
//!
//! # Shared Lua (includes)
//!
//! Scripts of one suite often share helpers. A script may include other Lua
//! files, in the convention BullMQ's scripts use, resolved at compile time:
//!
//! ```lua
//! --- @include "includes/counters"
//! return bump(KEYS[1], ARGV[1], 1)
//! ```
//!
//! The line is replaced by the text of `includes/counters.lua`, relative to
//! the including file's folder (`.lua` is added to a path without an
//! extension; paths are plain, no globs). Included files may include others;
//! each file is included once per script, so two helpers can both include a
//! third. The composed text is what the script sends, and its SHA1 is the
//! one the binding carries. Every included file is watched: editing one
//! rebuilds the crate. Every check runs on the composed text, and a finding
//! inside an included file quotes that file and its own line, with the
//! include that brought it in:
//!
//! ```text
//! error: Lua syntax error: 'then' expected near 'return'
//!         --> tests/ui/lua/includes/lib/broken.lua:4:9
//!          |
//!        4 |         return 1
//!          |         ^^^^^^
//!          = included from tests/ui/lua/includes/syntax_error_inside.lua:2
//! ```
//!
//! A missing file, an include cycle, a malformed directive (the path must be
//! quoted), an absolute path and an included file with a `#!` shebang are
//! compile errors at the directive's line.
//!
//! # Signatures in the Lua file
//!
//! A script can declare its interface in a header of doc comments, in the
//! style Lua's language server reads, so that the Lua file is the one place
//! that says what the script takes and replies:
//!
//! ```lua
//! --- Takes a lock if nobody holds it, always with an expiry.
//! ---@key lock string the lock key
//! ---@param ttl_ms integer time to live in milliseconds
//! ---@param token string the caller's token
//! ---@return string? "OK" when taken, nil when somebody holds it
//! return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])
//! ```
//!
//! The header is the run of `---` lines that opens the file (after a `#!lua`
//! line): `---@key name type [description]` for each of `KEYS[1..]` in
//! order, `---@param name type [description]` for each of `ARGV[1..]`,
//! `---@param ... type [description]` last for any number of further values,
//! `---@key ... type [description]` after the other keys for a list of keys
//! (bound as a `#[variadic] keys: &[T]` key parameter), `---@return type
//! [description]` once; other lines are the description.
//! Types map to Rust as follows:
//!
//! | header type | parameter | reply |
//! |---|---|---|
//! | `string` | `&str` | `String` |
//! | `integer` | `i64` | `i64` |
//! | `number` | `f64` | `f64` |
//! | `boolean` | `bool` (sent as `1` or `0`) | `bool` |
//! | `nil` | | `()` |
//! | `any` | | [`redis::Value`] |
//! | `T?` or `T\|nil` | | `Option<T>` |
//! | `T[]` | | `Vec<T>` |
//! | `table<string,T>` | | `HashMap<String, T>` |
//! | `...` of `T` | `&[T]`, `#[variadic]` (`keys` for `@key`, `rest` for `@param`) | |
//!
//! One line binds every script of a folder: [`scripts!`] generates a module
//! with one function per script, named after its file, with the header's
//! names, types and description (as docs), each a binding like
//! `#[redis_script]` makes, with every check below:
//!
//! ```
//! redis_script::scripts!(mod headed = "tests/lua/headed");
//!
//! // tests/lua/headed/read_field.lua: `---@key record string`,
//! // `---@param field string`, `---@return string?`.
//! let call: redis_script::Invocation<Option<String>> = headed::read_field("user:1", "name");
//! assert_eq!(headed::read_field::SCRIPT.key_names(), ["record"]);
//! # drop(call);
//! ```
//!
//! `scripts!(pub mod lua = "scripts/lock")` names the module; without a name
//! it is named after the folder. A script in the folder without a header,
//! with a header that does not parse (a misspelt tag, an unknown type, a key
//! after an argument) or without `---@return` is a compile error that quotes
//! its file and line. Only the folder's own `.lua` files are bound, not
//! those of its subfolders.
//!
//! A macro cannot ask Cargo to watch a folder, so a file added to it is seen
//! at the next build that re-runs the macro. Have Cargo re-run it whenever
//! the folder changes with a build script (`build.rs`) in the crate:
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     println!("cargo:rerun-if-changed=scripts/lock");
//! }
//! ```
//!
//! A script with a header can still be bound by hand with `#[redis_script]`;
//! then the header and the declaration must agree, and where they differ (a
//! `keys` count, a parameter's name or position, a type the header's type
//! does not map to, a `#[variadic]` tail, the reply) the error points at the
//! Rust token and quotes the header's line. Types the check cannot judge by
//! name (your own types, generics) are accepted. The header is checked
//! against the script's body by the checks below: a declared key or
//! argument the script never reads is a warning, an index the header does
//! not declare is an error, and so is a reply the declared type cannot hold.
//!
//! # Target servers
//!
//! Every check above holds for each server the crate targets: a global, a
//! library member, a command (with its arity and flags) or a shebang is
//! accepted only if all of them accept it. A crate names its targets once,
//! in its own `Cargo.toml`, for all its bindings:
//!
//! ```toml
//! [package.metadata.redis-script]
//! servers = ["redis-8.2", "valkey-9.1"]
//! ```
//!
//! The accepted values are `"redis-7.0"`, `"redis-7.2"`, `"redis-7.4"`,
//! `"redis-8.0"`, `"redis-8.2"`, `"valkey-8.0"`, `"valkey-8.1"` and
//! `"valkey-9.1"`: a non-empty list, each once. Without the table, all of
//! them are targeted: the default is the strictest, so a script that
//! compiles runs on every one of them. A binding can name its own targets
//! instead of the crate's, for the one script that needs a newer server:
//! `#[redis_script(file = "...", keys = 1, servers = ["redis-8.2"])]`.
//!
//! What is newer than Redis 7.0 is an error by default, whose note names
//! every server that has it and the setting that targets them: Valkey's
//! names (`server.call`, `redis.VALKEY_VERSION`, `#!LUA`), what came with
//! Redis 7.2 (`WAITAOF`, `ZRANK ... WITHSCORE`, blocking commands such as
//! `BLPOP` inside a script) and 7.4 (`os.clock`), hash field expiry
//! (`HEXPIRE` from Redis 7.4, `HGETEX` from Redis 8.0, both on Valkey 9.1),
//! Redis 8's vector sets (`VADD`, `VSIM`, ...), Valkey 9.1's `DELIFEQ`:
//! ```text
//! error: `hgetex` is not a command of Redis 7.0, so calling it fails there at run time
//!   --> scripts/field.lua:6:19
//!  6 | return redis.call('HGETEX', KEYS[1], 'FIELDS', 1, ARGV[1])
//!    |                   ^^^^^^^^
//!    = note: it exists on Redis 8.0, Redis 8.2 and Valkey 9.1 only; to target those, write in the crate's Cargo.toml: [package.metadata.redis-script] servers = ["redis-8.0", "redis-8.2", "valkey-9.1"] (or `servers = ["redis-8.0", "redis-8.2", "valkey-9.1"]` on this binding)
//! ```
//!
//! The tables behind these checks come from the servers themselves: Redis
//! 7.0 and 8.2, Valkey 8.1 and 9.1 from their binaries' `COMMAND`; Redis
//! 7.2, 7.4 and 8.0 and Valkey 8.0 derived from the newest binary's
//! `COMMAND DOCS` (when each command and argument came), a derivation that
//! reproduces the Redis 7.0 and Valkey 8.1 tables exactly. A command of a
//! module (`JSON.SET`, `FT.SEARCH`: a name with a dot) is never reported as
//! unknown.
//!
//! How the choice reaches the macro: the attribute reads the `Cargo.toml` of
//! the crate being compiled (in `CARGO_MANIFEST_DIR`, the directory script
//! paths are relative to) with a strict reader for this one table. Anything
//! else in the table, an unknown server or a value it cannot read is a
//! compile error on the attribute that quotes the line; the rest of the file
//! is ignored. When a change rebuilds: Cargo does not rebuild a crate when
//! only its `[package.metadata]` changes, so the expansion includes the
//! manifest (`include_bytes!`), as it includes the script; any edit of
//! `Cargo.toml` then re-runs the macro and its checks on the next build, like
//! an edit of a script.
//!
//! # Running a call
//!
//! | method | on | sends |
//! |---|---|---|
//! | [`Invocation::invoke`] | [`redis::ConnectionLike`] (`Connection`, pooled connections) | EVALSHA; after NOSCRIPT one more round trip |
//! | [`Invocation::invoke_async`] | [`redis::aio::ConnectionLike`] (`MultiplexedConnection`, `ConnectionManager`) | the same, async |
//! | [`ScriptPipeline::evalsha_script`] | [`redis::Pipeline`], plain or `.atomic()` | EVALSHA, after one SCRIPT LOAD per script per pipeline |
//! | [`ScriptPipeline::eval_script`] | the same | EVAL with the full source, every call |
//! | [`Batch::run`], [`Batch::run_async`] | a connection, sync or async | a [`Batch`]: the same as `evalsha_script` (or EVAL), plain or atomic, with a `Result` per call |
//! | [`Script::load`] | [`redis::ConnectionLike`] | SCRIPT LOAD, to warm a server (a function's library: FUNCTION LOAD REPLACE) |
//! | [`load_all`] | the same | FUNCTION LOAD REPLACE of every library and SCRIPT LOAD of every script in the program |
//!
//! Connections are taken one way throughout. Every synchronous entry point
//! ([`Invocation::invoke`], [`Script::load`], the recipes' methods) takes
//! `con: &mut dyn redis::ConnectionLike`: a `Connection`, a cluster
//! connection or a pooled one (`&mut *pooled`) is passed as `&mut con`, and
//! code that holds a `&mut dyn ConnectionLike` passes it on. Every async one
//! ([`Invocation::invoke_async`], [`Script::load_async`]) is generic over
//! `C: redis::aio::ConnectionLike`: redis-rs's async pipeline API takes a
//! sized connection, and the future is then `Send` exactly when the
//! connection is.
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
//! A call is packed in RESP once, when it is built, and `invoke` sends those
//! bytes as they are: a warm call with an integer reply allocates twice in
//! all (once for the call, once inside redis-rs's reply parser), where a
//! hand-written `redis::cmd("EVALSHA")` call allocates six times.
//!
//! In a pipeline, a call cannot recover from NOSCRIPT on its own: the
//! pipeline would fail halfway, or a transaction would commit its other
//! commands without the script. So a pipeline never relies on the cache:
//! [`evalsha_script`](ScriptPipeline::evalsha_script), the one to use,
//! queues a `SCRIPT LOAD` of each distinct script once, before its first
//! call (its reply is left out of the results), and every call as EVALSHA;
//! [`eval_script`](ScriptPipeline::eval_script) sends every call as EVAL
//! with the full source, which costs more the longer the script (at 64
//! calls per pipeline, measured with redis-benchmark, the server runs 8%
//! fewer EVALs than EVALSHAs of a 97-byte script, 68% fewer of a 4 KiB one).
//! Outside MULTI, a `SCRIPT FLUSH` from another client landing between the
//! SCRIPT LOAD and a call fails that call with NOSCRIPT; inside MULTI
//! nothing can land there; `eval_script` has no such window. So where
//! another client may flush the cache, a plain pipeline uses `eval_script`
//! and an atomic one `evalsha_script`: both survive a flush every
//! millisecond. See [`ScriptPipeline`].
//!
//! ```no_run
//! # use redis_script::redis;
//! # use redis_script::redis_script;
//! use redis_script::ScriptPipeline;
//! # #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! # pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let client = redis::Client::open("redis://127.0.0.1/")?;
//! # let mut con = client.get_connection()?;
//! let mut pipe = redis::pipe();
//! pipe.atomic();
//! pipe.evalsha_script(&acquire_lock("lock:a", 10_000, "token"))?;
//! pipe.incr("lock:a:attempts", 1);
//! let (taken, attempts): (Option<String>, i64) = pipe.query(&mut con)?;
//! # Ok(()) }
//! ```
//!
//! A `redis::Pipeline` fails as a whole, with redis-rs's error, which names
//! no script, and outside MULTI the calls after the failed command may
//! have run. A [`Batch`] gives each call its own `Result`, its error named
//! by the binding and its [`Error::applied`] right for that call (a SCRIPT
//! LOAD refused by an ACL user without `script|load` fails each of its
//! script's calls with that refusal, not applied), so the calls to retry
//! are exactly those whose error is [`Applied::No`]:
//!
//! ```no_run
//! # use redis_script::redis;
//! # use redis_script::redis_script;
//! use redis_script::{Applied, Batch};
//! # #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! # pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//! # #[redis_script(file = "scripts/lock_release.lua", keys = 1)]
//! # pub fn release_lock(lock: &str, token: &str) -> bool;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let client = redis::Client::open("redis://127.0.0.1/")?;
//! # let mut con = client.get_connection()?;
//! let mut batch = Batch::new(); // Batch::atomic() for MULTI/EXEC
//! let taken = batch.add(&acquire_lock("lock:a", 10_000, "token"))?;
//! let released = batch.add(&release_lock("lock:b", "token"))?;
//! let mut replies = batch.run(&mut con);
//! let taken: Option<String> = replies.take(&taken)?;
//! match replies.take(&released) {
//!     Ok(released) => println!("released: {released}"),
//!     Err(error) if error.applied() == Applied::No => { /* did not run: retry */ }
//!     Err(error) => return Err(error.into()),
//! }
//! # Ok(()) }
//! ```
//!
//! # Where it runs
//!
//! The same binding runs, unchanged, on every shape a deployment takes; the
//! project's tests run each one against real servers, on Redis 7.0, on
//! Valkey 8.1 and on Valkey 9.1.
//!
//! - **Redis and Valkey.** Both products' NOSCRIPT replies (`No matching
//!   script. Please use EVAL.`, `No matching script.` from Valkey 8.1 and
//!   9.1 alike) trigger recovery; an error a script raises itself with the
//!   code NOSCRIPT never does. Valkey 9.1 (checked on 9.1.2) has Valkey
//!   8.1's sandbox, shebang and Functions environment, more commands, and
//!   its own words for some refusals ("This Valkey command is not allowed
//!   from script"); its script errors end in `script: on @user_script:1.`,
//!   where Redis 7.0 and Valkey 8.1 name the script's SHA1 after `script:`.
//! - **Redis Cluster.** A binding runs on `redis::cluster::ClusterConnection`
//!   and the async `redis::cluster_async::ClusterConnection` (redis-rs
//!   features `cluster`, `cluster-async`), which route it by its first key;
//!   NOSCRIPT is recovered on whichever node answered, and [`Script::load`]
//!   reaches every node. A script's keys must share a hash slot: give them
//!   one hash tag (`{cart:7}:items`, `{cart:7}:total`; [`key_slot`] computes
//!   a key's slot). A call whose keys span slots fails with
//!   [`ErrorKind::CrossSlot`], listing each key and its slot: the cluster
//!   refuses such a call whatever the script's flags (checked on Redis 7.0,
//!   Valkey 8.1 and Valkey 9.1); the shebang flag `allow-cross-slot-keys` only lets a
//!   script reach keys it did not declare in other slots of the same node.
//!   [`Invocation::check_slots`]
//!   runs that check without sending anything, and
//!   [`ScriptPipeline`] on a `ClusterPipeline` (feature `cluster`) runs it
//!   before queueing; there `evalsha_script` queues EVAL, as the cluster
//!   pipeline could not send a keyless SCRIPT LOAD to the call's node. A script with no keys has no slot:
//!   the cluster client sends it to a node of its choice, so it should only
//!   touch what every node has (or nothing).
//! - **Replicas.** A `no-writes` script is sent as EVALSHA_RO / EVAL_RO,
//!   which replicas accept: on a connection to a replica, or through a
//!   cluster client that reads from replicas, it runs there and recovers from
//!   NOSCRIPT there. A write it attempts anyway fails with the server's
//!   "Write commands are not allowed from read-only scripts"; a script
//!   that is not `no-writes` is sent as EVALSHA: a replica runs it until it
//!   writes and then fails the call with `READONLY` (a script whose shebang
//!   lacks `no-writes` it refuses with `READONLY` before running it).
//! - **Restarts.** A restart empties the script cache; the next call recovers
//!   it. With `redis::aio::ConnectionManager` calls resume after the server
//!   is back; a call that returned `Ok` was applied, and one that returned
//!   `Err` says whether it may have been: [`Error::applied`] (below).
//! - **Failovers and eviction.** A promoted replica lacks the scripts that
//!   never ran on it, and Valkey and Redis 7.4+ evict EVAL-cached scripts beyond 500
//!   (never those added by SCRIPT LOAD: see [`NoScriptFallback`]); both
//!   are recovered like a flush.
//! - **Pools.** A pooled connection dereferences to a redis-rs connection:
//!   `call.invoke(&mut *pooled)` with r2d2 (redis-rs feature `r2d2`),
//!   `call.invoke_async(&mut *pooled)` with deadpool-redis. Give a pool's
//!   async connections response and connect timeouts that fit the load
//!   (`redis::AsyncConnectionConfig`): redis-rs's defaults are 500 ms and
//!   1 s, and a call that timed out may still have been applied.
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
//! | a table of key/value pairs, flat | `HashMap<K, V>`, `BTreeMap<K, V>` | the pairs |
//! | `{ok = "X"}`, `redis.status_reply("X")` | `String` | `"X"` |
//! | `{err = "X"}`, `redis.error_reply("CODE msg")`, `error("msg")` | any | `Err` with [`ErrorKind::Redis`]; [`Error::code`] is `CODE` |
//! | anything | `()` | discarded |
//! | anything | [`redis::Value`] | the reply exactly as the server sent it |
//!
//! `redis::Value` written as the declared type receives the reply exactly as
//! sent, RESP3 booleans included. The macro tells this from the declaration's
//! text: a generic parameter declared as the reply (`fn pop<T:
//! FromRedisValue>(...) -> Option<T>`) receives the folded form described
//! below, RESP3 booleans as RESP2 sends them, even when `T` is `redis::Value`.
//!
//! Any other [`redis::FromRedisValue`] type works as it does in redis-rs. A
//! reply that does not fit the declared type is an `Err` with
//! [`ErrorKind::Reply`] naming the script and the type, never a panic. That
//! includes an integer outside the range of the declared integer type (`-1`
//! into `u32`, `300` into `u8`), and a RESP3 double that is out of range,
//! infinite or NaN, at the top level and inside `Option`, `Vec`, tuples,
//! `HashSet`/`BTreeSet` and the keys and values of `HashMap`/`BTreeMap`;
//! redis-rs alone would cast it with `as` (wrapping an integer, saturating a
//! double, reading NaN as 0). A double in range is truncated toward zero, as
//! redis-rs does. Inside other types (your own, or behind an alias the macro
//! cannot read) redis-rs's conversion applies as is.
//!
//! A script that calls `redis.setresp(3)` returns booleans as RESP3 booleans
//! on a RESP3 connection; `Option<T>` and `bool` treat those like any other
//! Lua false. One case cannot be told apart: after `redis.setresp(3)`, a Lua
//! `false` reaches a RESP2 connection as integer `0`, so `Option<i64>` sees
//! `Some(0)` (and `bool` correctly sees `false`).
//!
//! # Typed JSON
//!
//! Scripts often exchange JSON with `cjson`. [`Json<T>`](Json) (feature
//! `json`, on by default) lets a parameter or a reply be a serde type that
//! travels as JSON text, one Redis value:
//!
//! ```
//! use redis_script::{Json, redis_script};
//!
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Order { id: u64, items: Vec<String> }
//!
//! /// `cjson.decode(ARGV[1])`, one more item, `return cjson.encode(order)`.
//! #[redis_script(file = "tests/lua/json_order.lua", keys = 1)]
//! fn add_item(key: &str, order: &Json<Order>, item: &str) -> Json<Order>;
//! ```
//!
//! A reply that is not JSON for `T` fails the call with
//! [`ErrorKind::Reply`] naming the script and what did not fit; nil is such
//! a reply unless the type is `Option<Json<T>>`.
//!
//! # Errors
//!
//! Every failure is an [`Error`] whose [`script`](Error::script) names the
//! binding and whose [`kind`](Error::kind) says what happened: a server or
//! connection error (including errors the script raised), a reply that does
//! not fit, a parameter that did not encode to one value, or keys a cluster
//! cannot serve together. `Error` converts
//! into [`redis::RedisError`], so `?` works in functions returning
//! `redis::RedisResult`.
//!
//! A failed call says whether it may have taken effect, which decides
//! whether it is safe to retry: [`Error::applied`] is [`Applied::No`] when
//! it was never sent or the server refused it before the script could
//! write (a refused connection, BUSY, LOADING, READONLY, the server's
//! NOSCRIPT, a script stopped by SCRIPT KILL, ...), [`Applied::Maybe`] when
//! the connection was lost or timed out after sending, or the script itself
//! raised an error (Redis keeps what it wrote before), and [`Applied::Yes`]
//! when only the reply did not fit the declared type.
//!
//! A script that runs past the server's `busy-reply-threshold` (5 s by
//! default) makes every other call fail with BUSY ([`Error::is_busy`], not
//! applied). [`kill_running_script`], sent on another connection, stops it
//! if it has not written yet; one that has is [`ScriptKill::Unkillable`]:
//! it runs to its end, and only `SHUTDOWN NOSAVE` stops it sooner.
//!
//! ```no_run
//! # use redis_script::redis;
//! # use redis_script::redis_script;
//! use redis_script::{Applied, ScriptKill, kill_running_script};
//! # #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
//! # pub fn acquire_lock(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let client = redis::Client::open("redis://127.0.0.1/")?;
//! # let mut con = client.get_connection()?;
//! # let mut admin = client.get_connection()?;
//! match acquire_lock("lock:a", 10_000, "token").invoke(&mut con) {
//!     Ok(taken) => println!("taken: {taken:?}"),
//!     Err(error) if error.is_busy() => {
//!         if kill_running_script(&mut admin)? == ScriptKill::Unkillable {
//!             eprintln!("a script that already wrote is still running");
//!         }
//!     }
//!     Err(error) if error.applied() == Applied::No => { /* safe to retry */ }
//!     Err(error) => return Err(error.into()), // may have run: check first
//! }
//! # Ok(()) }
//! ```
//!
//! Code built on bindings can report its other failures (a plain command, a
//! check of its own) with the same type: [`Error::operation`] names what
//! failed, e.g. `"ZRANGE in Leaderboard::top"`, in place of a binding. The
//! [`recipes`] do so, so each of their methods returns `Result<_, Error>`.
//!
//! # Security
//!
//! Keys and arguments only ever travel as `KEYS` and `ARGV`: a call sends
//! `EVALSHA sha1 numkeys key.. arg..` (or `EVAL source ...`, with the
//! source exactly as compiled in from the file), each key and argument a
//! separate, length-prefixed RESP bulk string. No value is ever spliced
//! into Lua source or into the command, so a value such as `"); redis.call('FLUSHALL') --`,
//! `]]`, a newline followed by `return`, a NUL byte or RESP framing is
//! stored and read back as the bytes it is, and nothing else runs
//! (`tests/integration/bad_input/injection.rs` shows it, counting the
//! commands the server ran). What a script does with its `ARGV` is the
//! script's business: one that passes an argument to `loadstring`, or uses
//! one as a command name (`redis.call(ARGV[1], ...)`), runs what the caller
//! sends, and the compile-time checks cannot judge a computed command.
//!
//! The runtime puts no argument value into an [`Error`] or into an
//! [`Invocation`]'s `Debug` output (which shows how many values a call has);
//! a cross-slot error names the keys, as the cluster would, and a server's
//! error (one the script raised included) is passed on as the server worded
//! it. A reply is converted without
//! a panic whatever the server sends (see [Replies](#replies)). The
//! [`recipes`]' lock and semaphore tokens come from the operating system's
//! random number generator, so a token cannot be guessed to release or
//! extend another client's lock.
//!
//! # Metadata
//!
//! Each binding `foo` comes with a module `foo` holding `foo::SCRIPT`, a
//! `&'static` [`Script`]: name, file, source, SHA1, KEYS and ARGV names,
//! arity and declared reply type, available without building a call.
//!
//! # Deploying every script at start-up
//!
//! Every binding compiled into a binary, of every crate in it, is listed at
//! run time by [`registry::scripts`], without a hand-kept list: each
//! expansion adds its `SCRIPT` to a slice that the linker assembles. So one
//! call loads them all on a server, or, through a cluster connection, on
//! every node of a cluster, and reports what it loaded:
//!
//! ```no_run
//! # use redis_script::redis;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = redis::Client::open("redis://127.0.0.1/")?;
//! let mut con = client.get_connection()?;
//! let loaded = redis_script::load_all(&mut con)?;
//! for script in &loaded.scripts {
//!     println!("{} ({}) {}", script.name(), script.file(), script.sha1());
//! }
//! # Ok(()) }
//! ```
//!
//! The list holds the bindings of this crate's own [`recipes`] too:
//!
//! ```
//! use redis_script::redis_script;
//!
//! #[redis_script(file = "tests/lua/echo_argv.lua", keys = 1)]
//! fn echo(queue: &str, #[variadic] values: &[&str]) -> Vec<String>;
//!
//! let paths: Vec<&str> = redis_script::registry::scripts().map(|s| s.binding_path()).collect();
//! assert!(paths.iter().any(|path| path.ends_with("::echo")));
//! assert!(paths.contains(&"redis_script::recipes::lock::acquire_lock_script"));
//! ```
//!
//! [`load_all_async`] does the same on async connections. A subset is a
//! filter away, loaded by [`registry::load`] (or [`registry::load_async`]),
//! each library and script once: `registry::load(&mut con,
//! registry::scripts().filter(|s| s.binding_path().starts_with("my_app::jobs::")))`
//! ([`recipes::scripts`] is the recipes' subset). The list holds
//! `#[redis_function]` bindings beside scripts: [`Script::library`] is
//! `Some` for those, and [`Script::load`] on one loads its library with
//! `FUNCTION LOAD REPLACE` (SCRIPT LOAD of a library's code would be
//! refused), so loading each binding of a subset works too, a library once
//! per binding of it.
//!
//! # Features
//!
//! - `tokio-comp` (default): `invoke_async` and `Script::load_async`, on
//!   redis-rs's tokio support.
//! - `smol-comp`: the same on redis-rs's smol support.
//! - `aio`: the async API without choosing a runtime (enabled by either of
//!   the above; redis-rs itself needs one of them).
//! - `cluster`: script calls in `redis::cluster::ClusterPipeline`. Bindings
//!   run on cluster connections without it (turn on redis-rs's own `cluster`
//!   or `cluster-async` for those).
//! - `json` (default): [`Json<T>`](Json), with serde_json.
//! - `tracing`: a span per call and per observed pipeline, through
//!   `tracing` (see [`observe`]).
//! - `metrics`: counters and latency histograms per binding, through the
//!   `metrics` facade (see [`observe`]). The counts of [`Script::stats`]
//!   need neither.
//! - `recipes` (default): the ready-made systems in [`recipes`], which bring
//!   serde and serde_json (for the red envelope's records): five more crates
//!   in a first build, compiled beside redis-rs. Without them:
//!   `default-features = false, features = ["tokio-comp"]`.
//!
//! - `redis-1` (default) or `redis-2`: the redis-rs to build on, below.
//!
//! Without the async features, everything else works on synchronous
//! connections. Since each binding `foo` is both a function and a module,
//! a doc link to it is written ``[`foo()`]`` (or ``[`fn@foo`]``).
//!
//! # redis-rs 1.x or 2.0
//!
//! The crate is built on redis-rs 1.x by default (the feature `redis-1`). For
//! redis-rs 2.0 (2.0.0-rc.2), turn the default features off and pick
//! `redis-2`:
//!
//! ```toml
//! [dependencies]
//! redis-script = { version = "0.1", default-features = false, features = ["redis-2", "tokio-comp", "recipes", "json"] }
//! redis = "=2.0.0-rc.2"
//! ```
//!
//! [`redis`] is then redis-rs 2.0, and every binding, recipe, Function,
//! pipeline and cluster path works on it as on 1.x. The two features are
//! exclusive: with both on, the build stops with an error that says which
//! to turn off. A binding reads a reply the same on both, except an array
//! of `[key, value]` pairs into a map, which only 2.0 accepts: an integer out
//! of the declared type's range and a double with a fraction into an integer
//! type are errors naming the script on both (redis-rs 1.x alone would wrap
//! or truncate them).

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Generated code names `::redis_script::__private`, also inside this crate.
extern crate self as redis_script;

/// Turns a function of a Redis Functions library on disk into a typed
/// function.
///
/// ```text
/// #[redis_function(library = "<path>.lua", keys = <N> [, name = "<function>"] [, allow(<rule>, ...)] [, crate = "<path>"])]
/// <vis> fn <name>(<N key parameters>, <ARGV parameters> [, #[variadic] <tail>]) [-> <reply>];
/// ```
///
/// - `library`: the library's Lua file, relative to the crate's
///   `Cargo.toml`, whose first line is `#!lua name=<library>`.
/// - `name` (optional): the function as the library registers it; by
///   default the Rust function's name.
/// - `keys`, `allow(...)`, `crate` and the parameters: as for
///   [`macro@redis_script`]; the callback's first parameter is KEYS and its
///   second ARGV.
///
/// It generates what [`macro@redis_script`] does, plus `<name>::LIBRARY`,
/// the [`Library`] the function belongs to. A call is FCALL, or FCALL_RO for
/// a `no-writes` function, and loads the library when the server lacks it:
/// the guide is [Redis Functions](crate#redis-functions).
pub use redis_script_macros::redis_function;
/// Turns a Lua script on disk into a typed function.
///
/// ```text
/// #[redis_script(file = "<path>.lua", keys = <N> [, allow(<rule>, ...)] [, crate = "<path>"])]
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
///   `unknown_member`; a comparison of a reply with nil that you keep on
///   purpose: `nil_comparison`; or, for a script that runs on one server or
///   reaches keys that share a hash tag, `undeclared_key` and
///   `value_in_keys`. Nothing else can be allowed on a binding: a reply
///   its Rust type cannot hold (`nil_reply`, `reply_shape`) or a call the
///   server refuses (`out_of_range`, `no_writes`, ...) would compile and
///   then fail (the `redis-lua` tool, where no Rust type is involved, may
///   allow more); see the checks below. A comment `-- redis-lua:
///   allow(rule)` in the Lua file does the same, for the same rules.
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
/// the reply type (see [Replies](crate#replies)); without one it is `()`.
///
///
/// # What it generates
///
/// - `fn <name>(..) -> Invocation<reply>`: builds the call; run it with
///   [`Invocation::invoke`], [`Invocation::invoke_async`] or in a pipeline
///   ([`ScriptPipeline`]).
/// - `mod <name>` with `pub static SCRIPT: Script`: the script's
///   [metadata](crate#metadata) (source, SHA1, names, arity, flags), its
///   counts ([`Script::stats`]) and [`Script::load`]. The binding is also
///   listed by [`registry::scripts`] and loaded by [`load_all`].
///
/// The Lua file is checked as described in
/// [Compile-time checks of the Lua](crate#compile-time-checks-of-the-lua).
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
/// and types: [Signatures in the Lua file](crate#signatures-in-the-lua-file).
pub use redis_script_macros::scripts;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub use redis_script_runtime::Json;
pub use redis_script_runtime::{
    Applied, Arity, Batch, BatchReplies, Error, ErrorClass, ErrorKind, InvalidKeyPrefix,
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

/// The redis-rs this crate is built on (1.x, or 2.0 with the feature
/// `redis-2`), for connections and pipelines.
#[cfg(not(all(feature = "redis-2", not(feature = "redis-1"))))]
#[cfg_attr(docsrs, doc(cfg(feature = "redis-1")))]
pub use redis;
/// The redis-rs this crate is built on (1.x, or 2.0 with the feature
/// `redis-2`), for connections and pipelines.
// An aliased `extern crate` at the root also makes it `redis` in every
// module of this crate.
#[cfg(all(feature = "redis-2", not(feature = "redis-1")))]
#[cfg_attr(docsrs, doc(cfg(feature = "redis-2")))]
pub extern crate redis2 as redis;

/// What `#[redis_script]` expansions name; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use redis_script_runtime::__private::*;
}
