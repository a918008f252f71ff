//! The command line, read by hand: a subcommand, flags and paths.

use redis_script_analyzer::servers::{Server, Servers};
use redis_script_analyzer::{Rule, lint};

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// For people: each finding as the macro shows it, and a summary.
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `check [PATHS...]`.
    Check(CheckOptions),
    /// `rules`: the rules and what each finds.
    Rules,
    /// `lsp`: the language server, over stdin and stdout.
    Lsp,
    /// `--help`.
    Help,
    /// `--version`.
    Version,
}

/// The options of `check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    /// Files and folders to check (`.` when none is given).
    pub paths: Vec<String>,
    /// The output format.
    pub format: Format,
    /// `--server`s given (empty: the config's, or every server).
    pub servers: Servers,
    /// `--keys N`: the key count of every script without a header.
    pub keys: Option<usize>,
    /// `--allow RULE`s.
    pub allow: Vec<Rule>,
    /// `--cluster`.
    pub cluster: bool,
    /// `--config PATH`.
    pub config: Option<String>,
    /// `--no-config`: no `redis-lua.toml` is read.
    pub no_config: bool,
    /// `--deny-warnings`: warnings fail the run too.
    pub deny_warnings: bool,
    /// `--fix`: apply the certain fixes to the files first.
    pub fix: bool,
}

/// The usage text of `--help`.
pub const USAGE: &str = "\
redis-lua: checks Redis and Valkey Lua scripts and Functions libraries

Usage:
  redis-lua check [OPTIONS] [PATHS...]   check .lua files (folders are searched; default .)
  redis-lua rules                        list the rules and what each finds
  redis-lua lsp                          run the language server (LSP over stdio)
  redis-lua --help | --version

Options of check:
  --format human|json|sarif   how to write the findings (default human)
  --server NAME               a server the scripts must run on: redis-7.0,
                              redis-7.2, redis-7.4, redis-8.0, redis-8.2,
                              valkey-8.0, valkey-8.1 or valkey-9.1; repeat for
                              several (default: all of them, the strictest)
  --keys N                    the number of keys of every script that has no
                              signature header, at most 10000 (default: from
                              redis-lua.toml, a name-N.lua file name with N of
                              at most 3 digits, or unknown)
  --allow RULE                do not report RULE; repeat for several
  --cluster                   the scripts run on Redis Cluster (or behind a proxy
                              that routes by KEYS): a key not from KEYS is an error
  --config PATH               read this config file instead of the nearest
                              redis-lua.toml
  --no-config                 read no config file
  --deny-warnings             exit 1 on warnings too
  --fix                       apply the certain fixes, then report what remains

Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.
";

/// Reads `args` (without the program's name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some((first, rest)) = args.split_first() else {
        return Err("no command: try `redis-lua check .`".to_owned());
    };
    match first.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "-V" | "--version" => Ok(Command::Version),
        "rules" => match rest.first() {
            None => Ok(Command::Rules),
            Some(extra) => Err(format!("`rules` takes no argument, got `{extra}`")),
        },
        "check" => check(rest),
        "lsp" => match rest.first() {
            None => Ok(Command::Lsp),
            Some(extra) => Err(format!("`lsp` takes no argument, got `{extra}`")),
        },
        other => Err(format!(
            "unknown command `{other}`: the commands are `check`, `rules` and `lsp`"
        )),
    }
}

/// The options of `check`; `--help` among them is [`Command::Help`].
fn check(args: &[String]) -> Result<Command, String> {
    let mut options = CheckOptions {
        paths: Vec::new(),
        format: Format::Human,
        servers: Servers::empty(),
        keys: None,
        allow: Vec::new(),
        cluster: false,
        config: None,
        no_config: false,
        deny_warnings: false,
        fix: false,
    };
    let mut args = args.iter();
    let mut only_paths = false;
    while let Some(arg) = args.next() {
        if only_paths || !arg.starts_with('-') {
            options.paths.push(arg.clone());
            continue;
        }
        if arg == "-h" {
            return Ok(Command::Help);
        }
        if !arg.starts_with("--") {
            return Err(format!(
                "unknown option `{arg}`: see `redis-lua --help` (a path that starts \
                 with `-` goes after `--`)"
            ));
        }
        // `--flag=value` or `--flag value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or_else(|| format!("`{name}` needs a value"))
        };
        match flag {
            "--" => only_paths = true,
            "--format" => {
                options.format = match value(flag)?.as_str() {
                    "human" => Format::Human,
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    other => {
                        return Err(format!(
                            "unknown format `{other}`: the formats are human, json and sarif"
                        ));
                    }
                }
            }
            "--server" => options.servers = options.servers.with(server(&value(flag)?)?),
            "--keys" => {
                let text = value(flag)?;
                options.keys =
                    Some(key_count(&text).map_err(|why| format!("`--keys {text}`: {why}"))?);
            }
            "--allow" => options.allow.push(rule(&value(flag)?)?),
            "--config" => options.config = Some(value(flag)?),
            "--no-config" => options.no_config = true,
            "--cluster" => options.cluster = true,
            "--deny-warnings" => options.deny_warnings = true,
            "--fix" => options.fix = true,
            "--help" => return Ok(Command::Help),
            other => return Err(format!("unknown option `{other}`: see `redis-lua --help`")),
        }
    }
    if options.paths.is_empty() {
        options.paths.push(".".to_owned());
    }
    Ok(Command::Check(options))
}

/// The server named `name` (`redis-7.0`).
pub fn server(name: &str) -> Result<Server, String> {
    Server::from_key(name).ok_or_else(|| {
        format!(
            "unknown server `{name}`: the servers are {}",
            Servers::ALL.quoted_keys()
        )
    })
}

/// The allowable rule named `name`.
pub fn rule(name: &str) -> Result<Rule, String> {
    match Rule::from_name(name) {
        Some(rule) if rule.allowable() => Ok(rule),
        Some(rule) => Err(format!(
            "`{rule}` cannot be allowed: the server refuses such a script"
        )),
        None => Err(format!(
            "unknown rule `{name}`: the rules that can be allowed are {}",
            redis_script_analyzer::Rule::allowable_names().join(", ")
        )),
    }
}

/// A key count as `--keys` and `keys = N` in redis-lua.toml give it: a
/// whole number up to [`lint::MAX_KEYS`].
pub fn key_count(text: &str) -> Result<usize, String> {
    let keys: u64 = text
        .parse()
        .map_err(|_| "the number of keys is a whole number".to_owned())?;
    usize::try_from(keys)
        .ok()
        .filter(|&keys| keys <= lint::MAX_KEYS)
        .ok_or_else(|| {
            format!(
                "a script takes at most {} keys here; a larger count is a mistake",
                lint::MAX_KEYS
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_usage_names_every_server() {
        for server in Server::ALL {
            assert!(USAGE.contains(server.key()), "{server}");
        }
    }

    #[test]
    fn flags_and_paths() {
        let Ok(Command::Check(options)) = parse(&args(
            "check a.lua --format=json --server redis-7.0 --server valkey-9.1 --keys 2 \
             --allow unknown-commands dir --deny-warnings",
        )) else {
            panic!()
        };
        assert_eq!(options.paths, ["a.lua", "dir"]);
        assert_eq!(options.format, Format::Json);
        assert_eq!(
            options.servers,
            Servers::only(Server::Redis7_0).with(Server::Valkey9_1)
        );
        assert_eq!(options.keys, Some(2));
        assert_eq!(options.allow, [Rule::UnknownCommands]);
        assert!(options.deny_warnings);
    }

    #[test]
    fn mistakes_are_named() {
        for (line, expected) in [
            ("", "no command"),
            ("lint", "unknown command `lint`"),
            ("check --format xml", "unknown format `xml`"),
            ("check --server redis-6", "unknown server `redis-6`"),
            ("check --keys two", "whole number"),
            ("check --allow syntax", "cannot be allowed"),
            ("check --allow nope", "unknown rule `nope`"),
            ("check --keys", "needs a value"),
            ("check --keys 99999999999", "at most 10000"),
            ("check --fast", "unknown option `--fast`"),
            ("check -x a.lua", "unknown option `-x`"),
        ] {
            let error = parse(&args(line)).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
        let Ok(Command::Check(options)) = parse(&args("check")) else {
            panic!()
        };
        assert_eq!(options.paths, ["."]);
        let Ok(Command::Check(options)) = parse(&args("check -- -x.lua")) else {
            panic!()
        };
        assert_eq!(options.paths, ["-x.lua"]);
    }

    #[test]
    fn help_is_a_command_wherever_it_is_asked() {
        for line in [
            "--help",
            "-h",
            "help",
            "check --help",
            "check -h",
            "check a.lua --help",
        ] {
            assert!(matches!(parse(&args(line)), Ok(Command::Help)), "{line}");
        }
    }
}
