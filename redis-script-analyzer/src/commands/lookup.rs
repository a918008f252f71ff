//! Lookups in the one command table ([`super::table`]) as one server
//! sees it: a command by name, a container's subcommands, what a script's
//! `redis.call(name, first_arg, ...)` runs, and "did you mean".

use std::cmp::Ordering;

use super::command::{Command, Entry};
use super::table::{COMMANDS, source};
use crate::servers::{Origin, Server, Servers};

impl Server {
    /// The exact version its command table was read from (`7.0.15`), or
    /// the release a derived table is for (`7.4`): the table's, so it
    /// comes from the specifications the table is generated from.
    pub const fn version(self) -> &'static str {
        source(self).0
    }

    /// Where its command table comes from.
    pub const fn origin(self) -> Origin {
        source(self).1
    }

    /// Its commands and subcommands, sorted by name.
    pub fn commands(self) -> impl Iterator<Item = &'static Command> + Clone {
        COMMANDS
            .iter()
            .filter(move |entry| entry.servers.contains(self))
            .map(|entry| &entry.command)
    }
}

impl Command {
    /// Does a call pick a subcommand with its first argument (CONFIG, SCRIPT)?
    pub fn has_subcommands(&self, server: Server) -> bool {
        self.subcommands(server).next().is_some()
    }

    /// For `config`: `config|get`, `config|help`, ...; none for a command
    /// without subcommands (and for a subcommand).
    pub fn subcommands(&self, server: Server) -> impl Iterator<Item = &'static Command> + Clone {
        subcommands_of(server, self.name)
    }
}

/// Compares a table name (lower case) with `name` in any case.
fn cmp_lower(table_name: &str, name: &str) -> Ordering {
    table_name
        .bytes()
        .cmp(name.bytes().map(|b| b.to_ascii_lowercase()))
}

/// The command or subcommand `name` (any case; `container|sub` for a
/// subcommand), as the table names it. This is a table lookup: what a script
/// would run is [`resolve`].
pub fn command(server: Server, name: &str) -> Option<&'static Command> {
    Forms::of(name).on(server)
}

/// The forms of one command (any case) in the table: one row per form,
/// each with the servers that give it; found by one binary search, so that
/// asking every server of a set costs one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Forms(&'static [Entry]);

impl Forms {
    /// The forms of `name`: the rows of one name are together.
    pub(crate) fn of(name: &str) -> Forms {
        let first = COMMANDS.partition_point(|entry| cmp_lower(entry.command.name, name).is_lt());
        let len = COMMANDS[first..]
            .iter()
            .take_while(|entry| cmp_lower(entry.command.name, name).is_eq())
            .count();
        Forms(&COMMANDS[first..first + len])
    }

    /// The command as `server` has it.
    pub(crate) fn on(self, server: Server) -> Option<&'static Command> {
        self.0
            .iter()
            .find(|entry| entry.servers.contains(server))
            .map(|entry| &entry.command)
    }

    /// The servers that have the command at all.
    pub(crate) fn servers(self) -> Servers {
        self.0
            .iter()
            .fold(Servers::empty(), |all, entry| all.union(entry.servers))
    }
}

/// The subcommands of `container` (any case) on `server`, sorted by name.
pub fn subcommands_of(
    server: Server,
    container: &str,
) -> impl Iterator<Item = &'static Command> + Clone + use<> {
    let rows: &'static [Entry] = if container.contains('|') {
        &[]
    } else {
        let prefix = format!("{}|", container.to_ascii_lowercase());
        let start = COMMANDS.partition_point(|entry| entry.command.name < prefix.as_str());
        let len = COMMANDS[start..]
            .iter()
            .take_while(|entry| entry.command.name.starts_with(&prefix))
            .count();
        &COMMANDS[start..start + len]
    };
    rows.iter()
        .filter(move |entry| entry.servers.contains(server))
        .map(|entry| &entry.command)
}

/// "Did you mean" for an unknown command name (any case), among the
/// commands (not subcommands) of `server`: `lpsuh` -> `lpush`.
pub fn suggest(server: Server, name: &str) -> Option<&'static str> {
    suggestion(server, name).map(|found| found.name)
}

/// [`suggest`], saying whether the suggestion is the only one that close.
pub(crate) fn suggestion(
    server: Server,
    name: &str,
) -> Option<crate::suggest::Suggestion<'static>> {
    let lower = name.to_ascii_lowercase();
    let names = server
        .commands()
        .map(|c| c.name)
        .filter(|n| !n.contains('|'));
    crate::suggest::suggestion(&lower, names)
}

/// What `server` runs for `redis.call(name, first_arg, ...)`, looked up as
/// the server does (see the module docs): `first_arg` is the literal first
/// argument after the name, `None` if the call has none. `None` for "Unknown
/// Redis command called from script". When the first argument exists but is
/// not a literal, use [`command`] and [`Command::subcommands`] instead.
pub fn resolve(server: Server, name: &str, first_arg: Option<&str>) -> Option<&'static Command> {
    if name.contains('|') {
        return None;
    }
    let base = command(server, name)?;
    match first_arg {
        Some(sub) if base.has_subcommands(server) => {
            if sub.contains('|') {
                return None;
            }
            command(server, &format!("{}|{sub}", base.name))
        }
        _ => Some(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::command::Flags;

    #[test]
    fn tables_are_sorted_lower_case_and_unique() {
        for server in Server::ALL {
            let table: Vec<&Command> = server.commands().collect();
            assert!(table.windows(2).all(|w| w[0].name < w[1].name), "{server}");
            for cmd in table {
                assert_eq!(cmd.name, cmd.name.to_ascii_lowercase());
                if let Some(container) = cmd.container() {
                    let parent =
                        command(server, container).expect("a subcommand's container is listed");
                    assert!(parent.subcommands(server).any(|sub| sub == cmd));
                }
            }
        }
    }

    #[test]
    fn each_server_gives_a_name_one_form() {
        use super::super::table::COMMANDS;
        for rows in COMMANDS.chunk_by(|a, b| a.command.name == b.command.name) {
            let mut seen = crate::servers::Servers::empty();
            for row in rows {
                assert!(
                    seen.and(row.servers).is_empty(),
                    "{}: two forms on one server",
                    row.command.name
                );
                assert!(!row.servers.is_empty(), "{}", row.command.name);
                seen = seen.union(row.servers);
            }
        }
    }

    #[test]
    fn script_relevant_flags() {
        for server in Server::ALL {
            let command = |name| command(server, name);
            assert!(command("set").unwrap().is_write());
            assert!(command("LPUSH").unwrap().is_write());
            assert!(command("Incr").unwrap().is_write());
            assert!(command("get").unwrap().is_readonly());
            assert!(!command("get").unwrap().is_write());
            assert!(command("time").is_some_and(|c| !c.is_noscript()));
            assert!(command("eval").unwrap().is_noscript());
            assert!(command("multi").unwrap().is_noscript());
            assert!(command("nosuch").is_none());
            assert!(command("").is_none());
            // The container has no flags; its subcommands decide.
            let config = command("config").unwrap();
            assert_eq!(config.flags, Flags::default());
            assert!(command("config|get").unwrap().is_noscript());
            assert!(command("CONFIG|GET").unwrap().is_noscript());
            assert!(command("config|help").is_some_and(|c| !c.is_noscript()));
            assert!(command("script|load").unwrap().is_noscript());
            let subcommands = config.subcommands(server);
            assert!(subcommands.clone().any(|c| c.name == "config|set"));
            assert!(command("get").unwrap().subcommands(server).next().is_none());
        }
    }

    #[test]
    fn the_servers_differ_where_their_command_replies_do() {
        let (redis, valkey) = (Server::Redis7_0, Server::Valkey8_1);
        // Redis 7.0 refuses blocking commands in scripts; Valkey runs them.
        assert!(command(redis, "blpop").unwrap().is_noscript());
        assert!(!command(valkey, "blpop").unwrap().is_noscript());
        assert!(command(redis, "waitaof").is_none());
        assert!(command(valkey, "waitaof").is_some());
        // ZRANK ... WITHSCORE is Valkey's (and Redis 7.2's).
        assert!(!command(redis, "zrank").unwrap().accepts_word_count(4));
        assert!(command(valkey, "zrank").unwrap().accepts_word_count(4));
        // `COMMAND COUNT` counts the commands, not their subcommands.
        let count = |server: Server| {
            server
                .commands()
                .filter(|c| c.container().is_none())
                .count()
        };
        assert_eq!((count(redis), count(valkey)), (240, 242));
        // Valkey 9.1 adds hash field expiry, DELIFEQ, MSETEX, ...
        let valkey_9_1 = Server::Valkey9_1;
        assert_eq!(count(valkey_9_1), 257);
        for name in [
            "hexpire", "hgetex", "hsetex", "hgetdel", "delifeq", "msetex",
        ] {
            assert!(command(valkey, name).is_none(), "{name}");
            assert!(
                command(valkey_9_1, name).is_some_and(Command::is_write),
                "{name}"
            );
        }
        // ... and wider arities.
        assert!(
            !command(valkey, "script|debug")
                .unwrap()
                .accepts_word_count(4)
        );
        assert!(
            command(valkey_9_1, "script|debug")
                .unwrap()
                .accepts_word_count(4)
        );
    }

    #[test]
    fn read_only_refusals_name_known_commands() {
        for server in Server::ALL {
            for name in server.profile().may_replicate {
                let found = command(server, name).unwrap_or_else(|| panic!("{name}"));
                assert!(found.may_replicate(server) && !found.is_write(), "{name}");
            }
        }
        let (redis, valkey) = (Server::Redis7_0, Server::Valkey8_1);
        let setslot = command(valkey, "cluster|setslot").unwrap();
        assert!(setslot.may_replicate(valkey) && !setslot.may_replicate(redis));
    }

    #[test]
    fn resolve_as_the_server_does() {
        for server in Server::ALL {
            let resolve = |name, sub| resolve(server, name, sub);
            let command = |name| command(server, name);
            assert_eq!(resolve("config", Some("get")).unwrap().name, "config|get");
            assert_eq!(resolve("CONFIG", Some("GeT")).unwrap().name, "config|get");
            assert_eq!(resolve("config", None).unwrap().name, "config");
            assert!(resolve("config", Some("nosuch")).is_none());
            assert!(resolve("config|get", Some("maxmemory")).is_none());
            assert_eq!(resolve("get", Some("k")).unwrap().name, "get");
            assert!(resolve("nosuch", None).is_none());
            assert!(command("config").unwrap().has_subcommands(server));
            assert!(!command("get").unwrap().has_subcommands(server));
            assert_eq!(suggest(server, "lpsuh"), Some("lpush"));
            assert_eq!(suggest(server, "HGETAL"), Some("hgetall"));
            assert_eq!(suggest(server, "get"), None);
            assert_eq!(suggest(server, "xyzzyq"), None);
            // Arity: `config` alone fails the arity check before `noscript`.
            assert!(!resolve("config", None).unwrap().accepts_word_count(1));
            let get = command("get").unwrap();
            assert!(get.accepts_word_count(2) && !get.accepts_word_count(3));
            let set = command("set").unwrap();
            assert!(!set.accepts_word_count(2) && set.accepts_word_count(5));
        }
    }
}
