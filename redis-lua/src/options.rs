//! The command line, read with `lexopt`: a subcommand, its flags and paths.
//! Arguments are `OsString`s: a path need not be UTF-8, and any other
//! argument that is not is a usage error, never a panic.
//!
//! To add a subcommand: a variant of [`Command`], an arm in [`parse`] that
//! reads its arguments with a function of its own (as `check()` and
//! `rules()` here do), and its line in [`USAGE`]. To add a flag to `check`:
//! a field of [`CheckOptions`], an arm in `check()`, and its line in
//! [`USAGE`] (a test reads every flag of the usage back through the parser).

use std::ffi::OsString;
use std::path::PathBuf;

use lexopt::{Arg, Parser};
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

/// Whether the human output is coloured (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Color {
    /// When the output is a terminal that shows colours, unless `NO_COLOR`
    /// is set (or `CLICOLOR=0`); always when `CLICOLOR_FORCE` is.
    #[default]
    Auto,
    /// Always, whatever the environment says.
    Always,
    /// Never.
    Never,
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
    pub paths: Vec<PathBuf>,
    /// The output format.
    pub format: Format,
    /// `--color`.
    pub color: Color,
    /// `--server`s given (empty: the config's, or every server).
    pub servers: Servers,
    /// `--keys N`: the key count of every script without a header.
    pub keys: Option<usize>,
    /// `--allow RULE`s.
    pub allow: Vec<Rule>,
    /// `--cluster`.
    pub cluster: bool,
    /// `--config PATH`.
    pub config: Option<PathBuf>,
    /// `--no-config`: no `redis-lua.toml` is read.
    pub no_config: bool,
    /// `--deny-warnings`: warnings fail the run too.
    pub deny_warnings: bool,
    /// `--fix`: apply the certain fixes to the files first.
    pub fix: bool,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            paths: Vec::new(),
            format: Format::Human,
            color: Color::Auto,
            servers: Servers::empty(),
            keys: None,
            allow: Vec::new(),
            cluster: false,
            config: None,
            no_config: false,
            deny_warnings: false,
            fix: false,
        }
    }
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
  --color auto|always|never   colour the human output (default auto: on a
                              terminal, unless NO_COLOR is set; CLICOLOR_FORCE
                              forces it)
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

Folders are searched for .lua files, skipping hidden files and folders, what
.ignore files and (in a git work tree) .gitignore files ignore, and the
config's `skip` globs (default: node_modules, target); a file named on the
command line is always read.

Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.
";

/// Reads `args` (without the program's name); an error is the message.
pub fn parse<I>(args: I) -> Result<Command, String>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut parser = Parser::from_args(args);
    let Some(first) = parser.next().map_err(mistake)? else {
        return Err("no command: try `redis-lua check .`".to_owned());
    };
    match first {
        Arg::Short('h') | Arg::Long("help") => Ok(Command::Help),
        Arg::Short('V') | Arg::Long("version") => Ok(Command::Version),
        Arg::Value(name) => match name.to_str() {
            Some("help") => Ok(Command::Help),
            Some("check") => check(&mut parser),
            Some("rules") => alone(&mut parser, "rules", Command::Rules, &[]),
            Some("lsp") => alone(&mut parser, "lsp", Command::Lsp, &["stdio"]),
            _ => Err(format!(
                "unknown command `{}`: the commands are `check`, `rules` and `lsp`",
                name.to_string_lossy()
            )),
        },
        other => Err(unknown_option(&other)),
    }
}

/// A subcommand without options but `--help` (`rules`, `lsp`): `command`.
/// The long flags in `accepted` change nothing (`lsp --stdio`, which
/// editors' LSP clients add: stdio is the only transport).
fn alone(
    parser: &mut Parser,
    name: &str,
    command: Command,
    accepted: &[&str],
) -> Result<Command, String> {
    loop {
        match parser.next().map_err(mistake)? {
            None => return Ok(command),
            Some(Arg::Long(flag)) if accepted.contains(&flag) => {}
            Some(Arg::Short('h') | Arg::Long("help")) => return Ok(Command::Help),
            Some(Arg::Value(extra)) => {
                return Err(format!(
                    "`{name}` takes no argument, got `{}`",
                    extra.to_string_lossy()
                ));
            }
            Some(other) => return Err(unknown_option(&other)),
        }
    }
}

/// The options of `check`; `--help` among them is [`Command::Help`].
fn check(parser: &mut Parser) -> Result<Command, String> {
    let mut options = CheckOptions::default();
    while let Some(arg) = parser.next().map_err(mistake)? {
        match arg {
            Arg::Value(path) => options.paths.push(PathBuf::from(path)),
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help),
            Arg::Long("format") => {
                options.format = match text(parser, "--format")?.as_str() {
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
            Arg::Long("color") => {
                options.color = match text(parser, "--color")?.as_str() {
                    "auto" => Color::Auto,
                    "always" => Color::Always,
                    "never" => Color::Never,
                    other => {
                        return Err(format!(
                            "unknown color choice `{other}`: the choices are auto, always and never"
                        ));
                    }
                }
            }
            Arg::Long("server") => {
                options.servers = options.servers.with(server(&text(parser, "--server")?)?);
            }
            Arg::Long("keys") => {
                let text = text(parser, "--keys")?;
                options.keys =
                    Some(key_count(&text).map_err(|why| format!("`--keys {text}`: {why}"))?);
            }
            Arg::Long("allow") => options.allow.push(rule(&text(parser, "--allow")?)?),
            Arg::Long("config") => {
                options.config = Some(PathBuf::from(parser.value().map_err(mistake)?));
            }
            Arg::Long("no-config") => options.no_config = true,
            Arg::Long("cluster") => options.cluster = true,
            Arg::Long("deny-warnings") => options.deny_warnings = true,
            Arg::Long("fix") => options.fix = true,
            other => return Err(unknown_option(&other)),
        }
    }
    if options.paths.is_empty() {
        options.paths.push(PathBuf::from("."));
    }
    Ok(Command::Check(options))
}

/// The value of `flag`, which must be UTF-8 text (a path need not be).
fn text(parser: &mut Parser, flag: &str) -> Result<String, String> {
    parser
        .value()
        .map_err(mistake)?
        .into_string()
        .map_err(|value| {
            format!(
                "`{flag}` takes UTF-8 text, and `{}` is not",
                value.to_string_lossy()
            )
        })
}

fn unknown_option(arg: &Arg<'_>) -> String {
    match arg {
        Arg::Short(letter) => format!(
            "unknown option `-{letter}`: see `redis-lua --help` (a path that starts \
             with `-` goes after `--`)"
        ),
        Arg::Long(name) => format!("unknown option `--{name}`: see `redis-lua --help`"),
        Arg::Value(value) => format!("unexpected `{}`", value.to_string_lossy()),
    }
}

/// A mistake lexopt finds, in the words of the tool's other messages.
fn mistake(error: lexopt::Error) -> String {
    match error {
        lexopt::Error::MissingValue {
            option: Some(option),
        } => format!("`{option}` needs a value"),
        lexopt::Error::UnexpectedValue { option, value } => format!(
            "`{option}` takes no value, got `{}`",
            value.to_string_lossy()
        ),
        other => other.to_string(),
    }
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

    /// Every `--flag` the usage shows is one the parser takes (given a
    /// value it accepts, where it takes one).
    #[test]
    fn every_flag_of_the_usage_is_read() {
        let flags = USAGE
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("--"))
            .map(|rest| rest.split([' ', '|']).next().unwrap_or(rest));
        let mut count = 0;
        for flag in flags {
            let value = match flag {
                "format" => Some("json"),
                "color" => Some("never"),
                "server" => Some("redis-7.0"),
                "keys" => Some("2"),
                "allow" => Some("unread"),
                "config" => Some("x.toml"),
                _ => None,
            };
            let mut line = vec!["check".to_owned(), format!("--{flag}")];
            line.extend(value.map(str::to_owned));
            let parsed = parse(line.clone());
            assert!(
                matches!(parsed, Ok(Command::Check(_))),
                "{line:?}: {parsed:?}"
            );
            count += 1;
        }
        assert!(count >= 9, "{count} flags read from the usage");
    }

    #[test]
    fn flags_and_paths() {
        let Ok(Command::Check(options)) = parse(args(
            "check a.lua --format=json --server redis-7.0 --server valkey-9.1 --keys 2 \
             --allow unknown-commands dir --deny-warnings --color always",
        )) else {
            panic!()
        };
        assert_eq!(
            options.paths,
            [PathBuf::from("a.lua"), PathBuf::from("dir")]
        );
        assert_eq!(options.format, Format::Json);
        assert_eq!(options.color, Color::Always);
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
            (
                "check --color sometimes",
                "unknown color choice `sometimes`",
            ),
            ("check --server redis-6", "unknown server `redis-6`"),
            ("check --keys two", "whole number"),
            ("check --allow syntax", "cannot be allowed"),
            ("check --allow nope", "unknown rule `nope`"),
            ("check --keys", "`--keys` needs a value"),
            ("check --keys 99999999999", "at most 10000"),
            ("check --fast", "unknown option `--fast`"),
            ("check -x a.lua", "unknown option `-x`"),
            (
                "check --cluster=yes",
                "`--cluster` takes no value, got `yes`",
            ),
            ("rules x", "`rules` takes no argument, got `x`"),
            ("--fast", "unknown option `--fast`"),
        ] {
            let error = parse(args(line)).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
        }
        let Ok(Command::Check(options)) = parse(args("check")) else {
            panic!()
        };
        assert_eq!(options.paths, [PathBuf::from(".")]);
        let Ok(Command::Check(options)) = parse(args("check -- -x.lua --help")) else {
            panic!()
        };
        assert_eq!(
            options.paths,
            [PathBuf::from("-x.lua"), PathBuf::from("--help")]
        );
    }

    #[cfg(unix)]
    #[test]
    fn arguments_that_are_not_utf8_are_paths_or_usage_errors() {
        use std::os::unix::ffi::OsStringExt;
        let odd = || OsString::from_vec(b"caf\xe9.lua".to_vec());
        let Ok(Command::Check(options)) = parse([OsString::from("check"), odd()]) else {
            panic!()
        };
        assert_eq!(options.paths, [PathBuf::from(odd())]);
        for line in [
            vec![OsString::from("check"), "--server".into(), odd()],
            vec![OsString::from("check"), "--format".into(), odd()],
        ] {
            let error = parse(line.clone()).unwrap_err();
            assert!(error.contains("takes UTF-8 text"), "{line:?}: {error}");
        }
        let error = parse([odd()]).unwrap_err();
        assert!(
            error.contains("unknown command `caf\u{fffd}.lua`"),
            "{error}"
        );
        let error = parse([
            OsString::from("check"),
            OsString::from_vec(b"--\xff".to_vec()),
        ])
        .unwrap_err();
        assert!(error.contains("unknown option `--\u{fffd}`"), "{error}");
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
            "rules --help",
        ] {
            assert!(matches!(parse(args(line)), Ok(Command::Help)), "{line}");
        }
    }
}
