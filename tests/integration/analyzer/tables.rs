//! The analyzer's tables against the server the harness starts
//! (`REDIS_SCRIPT_SERVER`, else `redis-server`): its command table
//! (`redis-script-analyzer/src/commands/*.rs`), written from the server's
//! `COMMAND` by `regenerate` and compared with it on every test run; its
//! sandbox table; the order and words in which the server refuses a call,
//! which the command checks follow; and what it refuses in a read-only
//! script. `regenerate` on a server that others are derived from (Redis
//! 8.2, Valkey 9.1) also writes its specifications and the derived tables
//! (see `derive.rs`); the words of each command's arguments are then
//! regenerated from those specifications by `option_words.rs`'s
//! `regenerate`, with no server.
//!
//! Regenerate with:
//!
//! ```text
//! REDIS_SCRIPT_REGENERATE=1 cargo test --test integration analyzer::tables::regenerate -- --ignored
//! REDIS_SCRIPT_REGENERATE=1 REDIS_SCRIPT_SERVER=/opt/redis-8.2.3/redis-server \
//!     cargo test --test integration analyzer::tables::regenerate -- --ignored
//! REDIS_SCRIPT_REGENERATE=1 REDIS_SCRIPT_SERVER=/opt/valkey-8.1.8/valkey-server \
//!     cargo test --test integration analyzer::tables::regenerate -- --ignored
//! REDIS_SCRIPT_REGENERATE=1 REDIS_SCRIPT_SERVER=/opt/valkey-9.1.2/valkey-server \
//!     cargo test --test integration analyzer::tables::regenerate -- --ignored
//! ```

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use redis_script_analyzer::commands::{self, Flags};
use redis_script_analyzer::sandbox;
use redis_script_analyzer::servers::{Origin, Product, Server};

use super::derive;
use crate::server::{Flavor, RedisServer};

pub(super) const REGENERATE_CMD: &str = "REDIS_SCRIPT_REGENERATE=1 cargo test --test integration \
     analyzer::tables::regenerate -- --ignored";

/// The tables that describe the server the harness started: of its
/// product, those of its release (`9.1` for `9.1.2`); for a release with no
/// tables, the newest older one, else the oldest, which the tests here then
/// compare only in part (they say so).
pub fn server_of(running: &RedisServer) -> Server {
    let product = match running.flavor() {
        Flavor::Redis => Product::Redis,
        Flavor::Valkey => Product::Valkey,
    };
    let ours = || {
        Server::ALL
            .into_iter()
            .filter(move |server| server.product() == product)
    };
    let release = |version: &str| {
        let (major, minor, _) = derive::version(version);
        (major, minor)
    };
    let running_release = release(running.version());
    let server_release = |server: &Server| release(server.release());
    ours()
        .filter(|server| server_release(server) <= running_release)
        .max_by_key(server_release)
        .or_else(|| ours().min_by_key(server_release))
        .unwrap_or_else(|| panic!("the analyzer has no tables of {product}"))
}

/// The generated file that holds `server`'s table.
fn table_file(server: Server) -> String {
    let stem = server.key().replace(['-', '.'], "_");
    format!(
        "{}/redis-script-analyzer/src/commands/{stem}.rs",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// What `regenerate` is called for `server` (the server binary set).
fn regenerate_cmd(server: Server) -> String {
    match server {
        // The `redis-server` on the PATH.
        Server::Redis7_0 => REGENERATE_CMD.to_owned(),
        _ if server.product() == Product::Redis => format!(
            "REDIS_SCRIPT_SERVER=<redis-server {}> {REGENERATE_CMD}",
            server.version()
        ),
        _ => format!("REDIS_SCRIPT_SERVER=<valkey-server> {REGENERATE_CMD}"),
    }
}

/// One command or subcommand as the server reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) name: String,
    pub(super) arity: i64,
    /// Names as `COMMAND` gives them, in its order.
    pub(super) flags: Vec<String>,
    pub(super) first_key: i64,
    pub(super) last_key: i64,
    pub(super) key_step: i64,
}

impl Row {
    /// The flags this table knows, as bits, and the names it does not know.
    pub(super) fn known_flags(&self) -> (u32, Vec<&str>) {
        let mut bits = 0;
        let mut unknown = Vec::new();
        for name in &self.flags {
            match Flags::from_name(name) {
                Some(bit) => bits |= bit,
                None => unknown.push(name.as_str()),
            }
        }
        (bits, unknown)
    }
}

/// `server`'s checked-in table, as rows.
pub(super) fn rows_of(server: Server) -> BTreeMap<String, Row> {
    server
        .commands()
        .map(|command| {
            let row = Row {
                name: command.name.to_owned(),
                arity: i64::from(command.arity),
                flags: command.flags.names().map(str::to_owned).collect(),
                first_key: i64::from(command.first_key),
                last_key: i64::from(command.last_key),
                key_step: i64::from(command.key_step),
            };
            (row.name.clone(), row)
        })
        .collect()
}

fn text(value: &redis::Value) -> String {
    match value {
        redis::Value::BulkString(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        redis::Value::SimpleString(s) => s.clone(),
        redis::Value::VerbatimString { text, .. } => text.clone(),
        other => panic!("expected a string in the COMMAND reply, got {other:?}"),
    }
}

fn int(value: &redis::Value) -> i64 {
    match value {
        redis::Value::Int(n) => *n,
        other => panic!("expected an integer in the COMMAND reply, got {other:?}"),
    }
}

fn list(value: &redis::Value) -> &[redis::Value] {
    match value {
        redis::Value::Array(items) | redis::Value::Set(items) => items,
        other => panic!("expected an array in the COMMAND reply, got {other:?}"),
    }
}

/// Adds one `COMMAND` entry and its subcommands (element 10, Redis 7+).
fn collect(entry: &redis::Value, rows: &mut BTreeMap<String, Row>) {
    let fields = list(entry);
    let row = Row {
        name: text(&fields[0]).to_ascii_lowercase(),
        arity: int(&fields[1]),
        flags: list(&fields[2]).iter().map(text).collect(),
        first_key: int(&fields[3]),
        last_key: int(&fields[4]),
        key_step: int(&fields[5]),
    };
    if let Some(subcommands) = fields.get(9) {
        for sub in list(subcommands) {
            collect(sub, rows);
        }
    }
    rows.insert(row.name.clone(), row);
}

/// A map as RESP2 sends it: `[key, value, key, value, ...]`, or a RESP3 map.
fn pairs(value: &redis::Value) -> Vec<(String, &redis::Value)> {
    match value {
        redis::Value::Map(entries) => entries.iter().map(|(k, v)| (text(k), v)).collect(),
        _ => list(value)
            .chunks(2)
            .map(|pair| (text(&pair[0]), &pair[1]))
            .collect(),
    }
}

/// A scalar of a `COMMAND DOCS` reply (or a list of them) as JSON.
fn scalar(value: &redis::Value) -> serde_json::Value {
    match value {
        redis::Value::Int(n) => serde_json::Value::from(*n),
        redis::Value::Array(items) | redis::Value::Set(items) => items.iter().map(scalar).collect(),
        other => serde_json::Value::from(text(other)),
    }
}

/// One command's (or argument's) `COMMAND DOCS` map as JSON: nested
/// `arguments` and `subcommands` as such, the rest as scalars.
fn doc(value: &redis::Value) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for (key, value) in pairs(value) {
        let converted = match key.as_str() {
            "arguments" => list(value).iter().map(doc).collect(),
            "subcommands" => pairs(value)
                .into_iter()
                .map(|(name, sub)| (name, doc(sub)))
                .collect::<serde_json::Map<_, _>>()
                .into(),
            _ => scalar(value),
        };
        out.insert(key, converted);
    }
    out.into()
}

/// `COMMAND DOCS` of every command and subcommand, by lower-case name.
fn read_docs(running: &RedisServer) -> BTreeMap<String, serde_json::Value> {
    let reply: redis::Value = redis::cmd("COMMAND")
        .arg("DOCS")
        .query(&mut running.connection())
        .expect("COMMAND DOCS");
    let mut docs = BTreeMap::new();
    for (name, value) in pairs(&reply) {
        let value = doc(value);
        if let Some(subcommands) = value.get("subcommands").and_then(|s| s.as_object()) {
            for (sub, sub_doc) in subcommands {
                docs.insert(sub.to_ascii_lowercase(), sub_doc.clone());
            }
        }
        docs.insert(name.to_ascii_lowercase(), value);
    }
    docs
}

/// The server's version (its own, see [`RedisServer::version`]) and its
/// commands by name.
fn read_server(running: &RedisServer) -> (String, BTreeMap<String, Row>) {
    let version = running.version().to_owned();
    assert!(!version.is_empty(), "INFO server gives no version");
    let reply: redis::Value = redis::cmd("COMMAND")
        .query(&mut running.connection())
        .expect("COMMAND");
    let mut rows = BTreeMap::new();
    for entry in list(&reply) {
        collect(entry, &mut rows);
    }
    (version, rows)
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs();
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The table's lines, one per command, sorted by name.
fn render_table(rows: &BTreeMap<String, Row>) -> String {
    let mut out = "#[rustfmt::skip]\npub static COMMANDS: &[Command] = &[\n".to_owned();
    for row in rows.values() {
        let (bits, unknown) = row.known_flags();
        assert!(
            unknown.is_empty(),
            "`{}` has flags the analyzer's commands.rs does not know: {unknown:?}; add them \
             to `flag` and FLAG_NAMES there, then regenerate",
            row.name
        );
        let names: Vec<String> = Flags(bits).names().map(str::to_uppercase).collect();
        let flags = if names.is_empty() {
            "0".to_string()
        } else {
            names.join(" | ")
        };
        out.push_str(&format!(
            "    c({:?}, {}, {flags}, {}, {}, {}),\n",
            row.name, row.arity, row.first_key, row.last_key, row.key_step
        ));
    }
    out.push_str("];\n");
    out
}

/// The whole generated file of `server`'s table, read from `source` (the
/// binary: `server` itself, or the newer one it is derived from) at
/// `version`.
fn render_file(
    server: Server,
    source: Server,
    version: &str,
    date: &str,
    rows: &BTreeMap<String, Row>,
) -> String {
    let binary = format!("{}-server", source.product().name().to_ascii_lowercase());
    let (read, how, checked, table_version) = if source == server {
        (
            format!("Generated from {binary} {version} (COMMAND)"),
            "as `COMMAND` reports it".to_owned(),
            "`table_matches_installed_server`",
            version.to_owned(),
        )
    } else {
        (
            format!("Derived from {binary} {version} (COMMAND, COMMAND DOCS)"),
            format!(
                "derived from {binary} {version}'s `COMMAND` and `COMMAND DOCS`\n//! \
                 (`tests/integration/analyzer/derive.rs`)"
            ),
            "`derived_tables_are_current` in `derive.rs`",
            server.release().to_owned(),
        )
    };
    let what = if source == server {
        "The version of the server the table was read from."
    } else {
        "The release the table was derived for."
    };
    format!(
        "// {read} on {date} by:\n\
         //   {}\n\
         \n\
         //! The command table of {}, {how}; written by the\n\
         //! test `regenerate` in the repository's `tests/integration/analyzer/tables.rs`,\n\
         //! checked by {checked} there. Do not edit by hand.\n\
         \n\
         use super::flag::*;\n\
         use super::{{Command, c}};\n\
         \n\
         /// {what}\n\
         pub const VERSION: &str = {table_version:?};\n\
         \n\
         {}",
        regenerate_cmd(source),
        server.name(),
        render_table(rows)
    )
}

/// `cargo test --test integration analyzer::tables::regenerate -- --ignored` with
/// `REDIS_SCRIPT_REGENERATE=1`: rewrites the table file of the server the
/// harness starts. Without the variable it only says whether the file is current.
#[test]
#[ignore = "rewrites the analyzer's src/commands/*.rs; run with REDIS_SCRIPT_REGENERATE=1"]
fn regenerate() {
    let running = RedisServer::start();
    let server = server_of(&running);
    let (version, rows) = read_server(&running);
    let date = today();
    write_generated(
        &table_file(server),
        &render_file(server, server, &version, &date, &rows),
        &format!("{} commands from {server} {version}", rows.len()),
    );
    // Its specifications, and the tables of the servers derived from it.
    let docs = read_docs(&running);
    let spec_path = derive::spec_file(server);
    write_generated(
        &spec_path.to_string_lossy(),
        &derive::render_spec(server, &version, &rows, &docs),
        &format!("the specifications of {server} {version}"),
    );
    let derived: Vec<Server> = Server::ALL
        .into_iter()
        .filter(|other| other.origin() == Origin::Derived { from: server })
        .collect();
    let spec = derive::load_spec_text(&derive::render_spec(server, &version, &rows, &docs));
    for other in derived {
        let release = other.release();
        let derived_rows = derive::derive(&spec, other.profile().product, release);
        write_generated(
            &table_file(other),
            &render_file(other, server, &version, &date, &derived_rows),
            &format!(
                "{} commands of {other} derived from {server} {version}",
                derived_rows.len()
            ),
        );
    }
}

/// Writes `text` to `path` with `REDIS_SCRIPT_REGENERATE=1`, else only says
/// whether the file is current (its first lines, which carry the date,
/// aside).
fn write_generated(path: &str, text: &str, what: &str) {
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let strip = |s: &str| {
        s.split_once("\n//!")
            .map_or(s.to_owned(), |(_, body)| body.to_owned())
    };
    let changed = strip(text) != strip(&current);
    if std::env::var("REDIS_SCRIPT_REGENERATE").as_deref() == Ok("1") {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {path}: {e}"));
        let state = if changed { "changed" } else { "unchanged" };
        eprintln!("wrote {path}: {what} ({state})");
    } else {
        let state = if changed { "NOT current" } else { "current" };
        eprintln!("{path} is {state} with {what}; set REDIS_SCRIPT_REGENERATE=1 to write it");
    }
}

/// The checked-in table of the server the harness starts, against that
/// server: all of it when the
/// versions are equal, else the commands both know (flags and arity still
/// compared, so a changed flag fails).
#[test]
fn table_matches_installed_server() {
    let running = RedisServer::start();
    let server = server_of(&running);
    let (version, rows) = read_server(&running);
    let file = table_file(server);
    let file = file.rsplit('/').next().unwrap_or_default();
    let regenerate = regenerate_cmd(server);
    let ours: BTreeMap<&str, &commands::Command> = server.commands().map(|c| (c.name, c)).collect();
    let table_version = server.version();
    let same_version = version == table_version;
    if !same_version {
        let only_server: Vec<&str> = rows
            .keys()
            .map(String::as_str)
            .filter(|n| !ours.contains_key(n))
            .collect();
        let only_ours: Vec<&str> = ours
            .keys()
            .copied()
            .filter(|n| !rows.contains_key(*n))
            .collect();
        println!(
            "{file} comes from {server} {table_version} but the installed one is \
             {version}: comparing only the commands both have (arity and the flags {file} \
             knows). Only on the server: {only_server:?}. Only in {file}: {only_ours:?}. \
             Regenerate with: {regenerate}"
        );
    }
    let mut problems = Vec::new();
    for (name, row) in &rows {
        let Some(cmd) = ours.get(name.as_str()) else {
            if same_version {
                problems.push(format!("{name}: on the server, not in {file}"));
            }
            continue;
        };
        let (bits, unknown) = row.known_flags();
        if !unknown.is_empty() {
            println!("{name}: ignoring flags {file} does not know: {unknown:?}");
        }
        if cmd.flags.0 != bits {
            problems.push(format!(
                "{name}: flags {:?} in {file}, {:?} on the server",
                cmd.flags,
                Flags(bits)
            ));
        }
        if i64::from(cmd.arity) != row.arity {
            problems.push(format!(
                "{name}: arity {} in {file}, {} on the server",
                cmd.arity, row.arity
            ));
        }
        let keys = (cmd.first_key, cmd.last_key, cmd.key_step);
        let server_keys = (row.first_key, row.last_key, row.key_step);
        if same_version && (i64::from(keys.0), i64::from(keys.1), i64::from(keys.2)) != server_keys
        {
            problems.push(format!(
                "{name}: keys {keys:?} in {file}, {server_keys:?} on the server"
            ));
        }
    }
    if same_version {
        for name in ours.keys().filter(|n| !rows.contains_key(**n)) {
            problems.push(format!("{name}: in {file}, not on the server"));
        }
    }
    assert!(
        problems.is_empty(),
        "{file} ({table_version}) differs from {server} {version}:\n{}\nRegenerate with: \
         {regenerate}",
        problems.join("\n")
    );
}

/// What the checker relies on, confirmed on the server itself: CONFIG GET
/// is refused in a script, CONFIG HELP is not, and the arity check comes
/// first; each server in its own words ([`Profile::refusals`](redis_script_analyzer::servers::Profile::refusals)).
/// BLPOP is where they differ.
#[test]
fn script_errors_follow_the_table() {
    let running = RedisServer::start();
    let server = server_of(&running);
    let mut con = running.connection();
    let mut eval = |body: &str| -> Result<redis::Value, String> {
        redis::cmd("EVAL")
            .arg(body)
            .arg(0)
            .query(&mut con)
            .map_err(|e| e.to_string())
    };
    let words = server.profile().refusals;
    let (unknown, arity, refused) = (words.unknown, words.arity, words.noscript);
    let resolve = |name, sub| commands::resolve(server, name, sub);
    let expect_err = |r: Result<redis::Value, String>, what: &str, call: &str| match r {
        Err(e) => assert!(e.contains(what), "{call}: {e}"),
        Ok(v) => panic!("{call} succeeded with {v:?}, expected {what}"),
    };
    expect_err(
        eval("return redis.call('config', 'get', 'maxmemory')"),
        refused,
        "config get",
    );
    assert!(resolve("config", Some("get")).unwrap().is_noscript());
    eval("return redis.call('config', 'help')").expect("config help runs in a script");
    assert!(!resolve("config", Some("help")).unwrap().is_noscript());
    expect_err(eval("return redis.call('config')"), arity, "config");
    expect_err(
        eval("return redis.call('Config', 'nosuch')"),
        &words.unknown_subcommand("Config", "nosuch"),
        "config nosuch",
    );
    assert!(resolve("config", Some("nosuch")).is_none());
    expect_err(
        eval("return redis.call('config|get', 'maxmemory')"),
        unknown,
        "config|get",
    );
    expect_err(eval("return redis.call('nosuch')"), unknown, "nosuch");
    expect_err(
        eval("return redis.call('script', 'load', 'return 1')"),
        refused,
        "script load",
    );
    eval("return redis.call('set', 'k', 'v')").expect("set runs in a script");
    eval("return redis.call('TIME')").expect("time runs in a script");
    expect_err(
        eval("#!lua flags=no-writes\nreturn redis.call('set', 'k', 'v')"),
        words.write_in_read_only,
        "set in a no-writes script",
    );
    let blpop = eval("return redis.call('blpop', 'empty', 1)");
    if resolve("blpop", None).unwrap().is_noscript() {
        expect_err(blpop, refused, "blpop");
    } else {
        blpop.expect("blpop runs in a script (and does not block there)");
    }
}

/// Which commands flagged neither `write` nor `noscript` a read-only script
/// may not call: each one called in a `no-writes` script with as many
/// arguments as its arity asks (`x` each, which most then refuse, after
/// the read-only check), against [`Profile::may_replicate`](redis_script_analyzer::servers::Profile::may_replicate).
#[test]
fn read_only_scripts_refuse_what_the_table_says() {
    let running = RedisServer::start();
    let server = server_of(&running);
    let mut con = running.connection();
    let refusal = server.profile().refusals.write_in_read_only;
    let mut refused = Vec::new();
    let candidates = server.commands().filter(|command| {
        !command.is_write() && !command.is_noscript() && !command.has_subcommands(server)
    });
    for command in candidates {
        let mut words: Vec<&str> = command.name().split('|').collect();
        let needed = command.arity.unsigned_abs() as usize;
        words.resize(needed.max(words.len()), "x");
        let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
        let script = format!(
            "#!lua flags=no-writes\nreturn redis.pcall({})",
            quoted.join(", ")
        );
        let reply: redis::RedisResult<redis::Value> =
            redis::cmd("EVAL").arg(script).arg(0).query(&mut con);
        if reply.is_err_and(|error| error.to_string().contains(refusal)) {
            refused.push(command.name());
        }
    }
    assert_eq!(
        refused,
        server.profile().may_replicate,
        "what {server} {} refuses in a no-writes script, besides `write` commands",
        running.version()
    );
}

/// Runs `pairs(...)` inside the server the harness starts and compares
/// with the entries of the analyzer's sandbox table that server has: every global and
/// every library member, with its type. On another version than the
/// table's ([`Server::version`]), only checks that those entries are
/// there, and prints what the server has on top.
#[test]
fn sandbox_matches_installed_server() {
    let running = RedisServer::start();
    let server = server_of(&running);
    let mut con = running.connection();
    let version = running.version();
    let mut list = |table: &str| -> Vec<String> {
        let script = format!(
            "local out = {{}} for k, v in pairs({table}) do out[#out+1] = k .. '=' .. type(v) end \
             return out"
        );
        let mut names: Vec<String> = redis::cmd("EVAL")
            .arg(script)
            .arg(0)
            .query(&mut con)
            .unwrap_or_else(|e| panic!("listing {table}: {e}"));
        names.retain(|n| {
            !sandbox::INTERNAL_GLOBALS
                .iter()
                .any(|i| n.starts_with(&format!("{i}=")))
        });
        names.sort();
        names
    };
    let same_version = version == server.version();
    if !same_version {
        println!(
            "the analyzer's sandbox.rs describes {server} {}, the installed one is {version}: checking \
             only that what sandbox.rs lists is there",
            server.version()
        );
    }
    // Each global that holds a library, by the name the server knows it.
    for (name, ours) in sandbox::library_tables(server) {
        let on_server = list(name);
        if same_version {
            assert_eq!(on_server, ours, "{name} differs from {server} {version}");
        } else {
            let missing: Vec<&String> = ours.iter().filter(|m| !on_server.contains(m)).collect();
            let extra: Vec<&String> = on_server.iter().filter(|m| !ours.contains(m)).collect();
            println!("{name}: only on the server: {extra:?}");
            assert!(
                missing.is_empty(),
                "{name}: {server} {version} lacks {missing:?}"
            );
        }
    }
}
