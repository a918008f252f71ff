//! `redis-lua.toml`, the config file at a project's root:
//!
//! ```toml
//! servers = ["redis-7.0", "valkey-8.1"]   # the servers scripts must run on (default: all)
//! allow = ["unread"]                     # rules not reported anywhere
//! keys-from-name = true                  # name-N.lua takes N keys, N up to 999 (the default)
//! cluster = true                         # scripts run on Redis Cluster: keys must come from KEYS
//! exclude = ["vendor/**"]                # files not checked
//!
//! [files."src/commands/*.lua"]           # files matching a glob, relative to this file
//! keys = 2                               # their number of keys, when they have no header (at most 10000)
//! allow = ["unknown_commands"]
//! servers = ["valkey-9.1"]
//! ```
//!
//! A small reader for exactly these keys (a TOML subset: strings, whole
//! numbers, booleans, arrays of strings, `[files."glob"]` tables), so the
//! tool needs no TOML crate. A key it does not know is an error, not
//! ignored. Globs: `*` is any run of characters but `/`, `**` any run of
//! folders, `?` one character; a glob without `/` matches a file's name in
//! any folder. For a file several `[files]` tables match, the last one's
//! `keys` and `servers` win, and every `allow` adds up.

use std::path::{Path, PathBuf};

use redis_script_analyzer::Allowed;
use redis_script_analyzer::servers::Servers;

use crate::options;

/// The name the tool looks for.
pub const FILE_NAME: &str = "redis-lua.toml";

/// A config file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The folder globs are relative to (the file's own).
    pub root: PathBuf,
    /// `servers` at the top (empty: not set).
    pub servers: Servers,
    /// `allow` at the top.
    pub allowed: Allowed,
    /// `keys-from-name`.
    pub keys_from_name: bool,
    /// `cluster`.
    pub cluster: bool,
    /// `exclude`.
    pub exclude: Vec<String>,
    /// The `[files."glob"]` tables, in order.
    pub files: Vec<FileRule>,
}

/// One `[files."glob"]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRule {
    /// The glob.
    pub glob: String,
    /// `keys`.
    pub keys: Option<usize>,
    /// `servers` (empty: not set).
    pub servers: Servers,
    /// `allow`.
    pub allowed: Allowed,
}

/// What the config says of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForFile {
    /// Not checked at all.
    pub excluded: bool,
    /// Its number of keys.
    pub keys: Option<usize>,
    /// Its servers (empty: not set).
    pub servers: Servers,
    /// Its allowed rules.
    pub allowed: Allowed,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            root: PathBuf::from("."),
            servers: Servers::empty(),
            allowed: Allowed::NONE,
            keys_from_name: true,
            cluster: false,
            exclude: Vec::new(),
            files: Vec::new(),
        }
    }
}

impl Config {
    /// The nearest `redis-lua.toml` in `start` or a folder above it.
    pub fn find(start: &Path) -> Option<PathBuf> {
        let start = start.canonicalize().ok()?;
        start
            .ancestors()
            .map(|dir| dir.join(FILE_NAME))
            .find(|candidate| candidate.is_file())
    }

    /// Reads the config at `path`.
    pub fn read(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        // A bare file name's parent is the empty path: the current folder.
        let root = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        Config::parse(&text, root)
            .map_err(|(line, message)| format!("{}:{line}: {message}", path.display()))
    }

    /// Reads `text`, with globs relative to `root`; an error is its line and what is wrong.
    pub fn parse(text: &str, root: PathBuf) -> Result<Config, (usize, String)> {
        let mut config = Config {
            root,
            ..Config::default()
        };
        let mut lines = text.lines().enumerate();
        while let Some((index, raw)) = lines.next() {
            let number = index + 1;
            let mut line = strip_comment(raw).trim().to_owned();
            if line.is_empty() {
                continue;
            }
            if let Some(header) = line.strip_prefix('[') {
                let glob = header
                    .strip_prefix("files.")
                    .and_then(|rest| rest.strip_suffix(']'))
                    .and_then(|quoted| string(quoted.trim()))
                    .ok_or((
                        number,
                        format!("`{line}`: the only tables are `[files.\"<glob>\"]`"),
                    ))?;
                config.files.push(FileRule {
                    glob,
                    keys: None,
                    servers: Servers::empty(),
                    allowed: Allowed::NONE,
                });
                continue;
            }
            // An array may go on over several lines.
            while line.contains('[') && !line.contains(']') {
                let Some((_, more)) = lines.next() else {
                    return Err((number, "an array without its closing `]`".to_owned()));
                };
                line.push(' ');
                line.push_str(strip_comment(more).trim());
            }
            let (key, value) = line
                .split_once('=')
                .ok_or((number, format!("`{line}` is not `key = value`")))?;
            let (key, value) = (key.trim(), value.trim());
            let error = |message: String| (number, message);
            let in_table = !config.files.is_empty();
            match (in_table, key) {
                (_, "servers") => {
                    let servers = servers(value).map_err(error)?;
                    match config.files.last_mut() {
                        Some(rule) => rule.servers = servers,
                        None => config.servers = servers,
                    }
                }
                (_, "allow") => {
                    let allowed = allowed(value).map_err(error)?;
                    match config.files.last_mut() {
                        Some(rule) => rule.allowed = allowed,
                        None => config.allowed = allowed,
                    }
                }
                (true, "keys") => {
                    let keys = crate::options::key_count(value)
                        .map_err(|why| error(format!("`keys = {value}`: {why}")))?;
                    if let Some(rule) = config.files.last_mut() {
                        rule.keys = Some(keys);
                    }
                }
                (false, "keys-from-name") => {
                    config.keys_from_name = match value {
                        "true" => true,
                        "false" => false,
                        _ => return Err(error(format!("`{key}` is true or false"))),
                    }
                }
                (false, "cluster") => {
                    config.cluster = match value {
                        "true" => true,
                        "false" => false,
                        _ => return Err(error(format!("`{key}` is true or false"))),
                    }
                }
                (false, "exclude") => config.exclude = strings(value).map_err(error)?,
                (in_table, key) => {
                    let keys = if in_table {
                        "`keys`, `servers` and `allow`"
                    } else {
                        "`servers`, `allow`, `keys-from-name`, `cluster` and `exclude` (and \
                         `keys` in a [files] table)"
                    };
                    return Err(error(format!(
                        "unknown key `{key}`: the keys here are {keys}"
                    )));
                }
            }
        }
        Ok(config)
    }

    /// What the config says of the file at `path`.
    pub fn for_file(&self, path: &Path) -> ForFile {
        let relative = relative_to(path, &self.root);
        let mut settings = ForFile {
            excluded: self.exclude.iter().any(|glob| matches(glob, &relative)),
            keys: None,
            servers: self.servers,
            allowed: self.allowed,
        };
        for rule in self
            .files
            .iter()
            .filter(|rule| matches(&rule.glob, &relative))
        {
            settings.keys = rule.keys.or(settings.keys);
            if !rule.servers.is_empty() {
                settings.servers = rule.servers;
            }
            settings.allowed = settings.allowed.union(rule.allowed);
        }
        settings
    }
}

/// `path` relative to `root`, with `/` between folders.
fn relative_to(path: &Path, root: &Path) -> String {
    let absolute = |path: &Path| {
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    };
    let (path, root) = (absolute(path), absolute(root));
    let relative = path.strip_prefix(&root).unwrap_or(&path);
    relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The line without a `#` comment (outside a string).
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (at, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..at],
            _ => {}
        }
    }
    line
}

/// The text of a `"..."` string (no escapes).
fn string(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('"') && !inner.contains('\\')).then(|| inner.to_owned())
}

/// `["a", "b"]`.
fn strings(value: &str) -> Result<Vec<String>, String> {
    let inner = value
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(|| format!("`{value}` is not an array of strings, e.g. `[\"a\", \"b\"]`"))?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            string(item).ok_or_else(|| format!("`{item}` is not a string in double quotes"))
        })
        .collect()
}

fn servers(value: &str) -> Result<Servers, String> {
    let mut servers = Servers::empty();
    for name in strings(value)? {
        servers = servers.with(options::server(&name)?);
    }
    Ok(servers)
}

fn allowed(value: &str) -> Result<Allowed, String> {
    let mut allowed = Allowed::NONE;
    for name in strings(value)? {
        allowed = allowed.with(options::rule(&name)?);
    }
    Ok(allowed)
}

/// Whether `path` (relative, `/`-separated) matches `glob`.
pub fn matches(glob: &str, path: &str) -> bool {
    let glob = glob.trim_start_matches("./");
    if !glob.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return matches_bytes(glob.as_bytes(), name.as_bytes());
    }
    matches_bytes(glob.as_bytes(), path.as_bytes())
}

fn matches_bytes(glob: &[u8], path: &[u8]) -> bool {
    match glob {
        [] => path.is_empty(),
        [b'*', b'*', b'/', rest @ ..] => {
            // Zero or more whole folders.
            matches_bytes(rest, path)
                || path
                    .iter()
                    .position(|&b| b == b'/')
                    .is_some_and(|slash| matches_bytes(glob, &path[slash + 1..]))
        }
        [b'*', b'*', rest @ ..] => (0..=path.len()).any(|skip| matches_bytes(rest, &path[skip..])),
        [b'*', rest @ ..] => (0..=path.len())
            .take_while(|&skip| skip == 0 || path[skip - 1] != b'/')
            .any(|skip| matches_bytes(rest, &path[skip..])),
        [b'?', rest @ ..] => {
            path.first().is_some_and(|&b| b != b'/') && matches_bytes(rest, &path[1..])
        }
        [c, rest @ ..] => path.first() == Some(c) && matches_bytes(rest, &path[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use redis_script_analyzer::Rule;
    use redis_script_analyzer::servers::Server;

    #[test]
    fn globs() {
        for (glob, path, expected) in [
            ("*.lua", "a/b/c.lua", true),
            ("src/*.lua", "src/a.lua", true),
            ("src/*.lua", "src/x/a.lua", false),
            ("src/**/*.lua", "src/a.lua", true),
            ("src/**/*.lua", "src/x/y/a.lua", true),
            ("vendor/**", "vendor/x/a.lua", true),
            ("addJob-?.lua", "cmd/addJob-9.lua", true),
            ("addJob-?.lua", "cmd/addJob-10.lua", false),
            ("./src/a.lua", "src/a.lua", true),
        ] {
            assert_eq!(matches(glob, path), expected, "{glob} {path}");
        }
    }

    #[test]
    fn reads_every_key() {
        let text = r#"
            servers = ["redis-7.0", "valkey-8.1"]  # two
            allow = [
                "unread",
            ]
            keys-from-name = false
            exclude = ["vendor/**"]

            [files."cmd/*.lua"]
            keys = 2
            allow = ["unknown-commands"]

            [files."cmd/b.lua"]
            servers = ["valkey-9.1"]
        "#;
        let config = Config::parse(text, PathBuf::from("/nowhere")).unwrap();
        assert_eq!(
            config.servers,
            Servers::only(Server::Redis7_0).with(Server::Valkey8_1)
        );
        assert!(!config.keys_from_name);
        let b = config.for_file(Path::new("/nowhere/cmd/b.lua"));
        assert_eq!(b.keys, Some(2));
        assert_eq!(b.servers, Servers::only(Server::Valkey9_1));
        assert!(b.allowed.allows(Rule::Unread) && b.allowed.allows(Rule::UnknownCommands));
        assert!(config.for_file(Path::new("/nowhere/vendor/x.lua")).excluded);
        assert_eq!(config.for_file(Path::new("/nowhere/a.lua")).keys, None);
    }

    #[test]
    fn mistakes_name_their_line() {
        for (text, line, expected) in [
            ("serves = []", 1, "unknown key `serves`"),
            ("\nkeys = 2", 2, "unknown key `keys`"),
            ("[files.\"a\"]\nkeys = x", 2, "whole number"),
            ("[files.\"a\"]\nkeys = 20000", 2, "at most 10000 keys"),
            ("[other]", 1, "the only tables"),
            ("allow = [\"syntax\"]", 1, "cannot be allowed"),
            ("servers = [\"redis-6\"]", 1, "unknown server"),
            ("exclude = [\"a\"", 1, "closing"),
            ("keys-from-name = yes", 1, "true or false"),
        ] {
            let (at, message) = Config::parse(text, PathBuf::new()).unwrap_err();
            assert_eq!(at, line, "{text}");
            assert!(message.contains(expected), "{text}: {message}");
        }
    }
}
