//! `redis-lua.toml`, the config file at a project's root:
//!
//! ```toml
//! servers = ["redis-7.0", "valkey-8.1"]   # the servers scripts must run on (default: all)
//! allow = ["unread"]                     # rules not reported anywhere
//! keys-from-name = true                  # name-N.lua takes N keys, N up to 999 (the default)
//! cluster = true                         # scripts run on Redis Cluster: keys must come from KEYS
//! exclude = ["vendor/**"]                # files not checked
//! skip = ["node_modules", "target"]      # what a folder search does not enter (the default)
//!
//! [files."src/commands/*.lua"]           # files matching a glob, relative to this file
//! keys = 2                               # their number of keys, when they have no header (at most 10000)
//! allow = ["unknown_commands"]
//! servers = ["valkey-9.1"]
//! ```
//!
//! Read by the `toml` crate (any TOML: literal strings, escapes, inline
//! tables, arrays over several lines), without serde: the document's
//! spans name the line of a mistake. A key the tool does not know is an
//! error, not ignored. Globs are [`Globs`]. For a file several `[files]`
//! tables match, the last one's `keys` and `servers` win, and every
//! `allow` adds up.

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use redis_script_analyzer::Allowed;
use redis_script_analyzer::servers::Servers;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::globs::Globs;
use crate::options;

/// The name the tool looks for.
pub const FILE_NAME: &str = "redis-lua.toml";

/// What a folder search skips when the config does not say (`skip`):
/// the folders of npm's and Cargo's builds, which are usually git-ignored
/// too, but not in a project without a `.gitignore`.
pub const DEFAULT_SKIP: &[&str] = &["node_modules", "target"];

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
    /// `exclude`: files not checked, though still read for what they include.
    pub exclude: Globs,
    /// `skip`: files and folders a folder search passes by.
    pub skip: Globs,
    /// The `[files."glob"]` tables, in order.
    pub files: Vec<FileRule>,
    /// The globs of `files`, in the same order.
    file_globs: Globs,
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
    /// What holds without a config file, in the current folder.
    fn default() -> Config {
        Config {
            root: PathBuf::from("."),
            servers: Servers::empty(),
            allowed: Allowed::NONE,
            keys_from_name: true,
            cluster: false,
            exclude: Globs::none(),
            skip: Globs::new(DEFAULT_SKIP).expect("the default globs parse"),
            files: Vec::new(),
            file_globs: Globs::none(),
        }
    }
}

/// A mistake in the file: the line it is on, and what is wrong.
type Mistake = (usize, String);

/// The keys of the top level, for messages.
const TOP_KEYS: &str = "`servers`, `allow`, `keys-from-name`, `cluster`, `exclude`, `skip` and \
                        `files` (and `keys` in a [files] table)";

/// The keys of a `[files."glob"]` table, for messages.
const FILE_KEYS: &str = "`keys`, `servers` and `allow`";

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
    pub fn parse(text: &str, root: PathBuf) -> Result<Config, Mistake> {
        let file = File { text };
        let document = DeTable::parse(text)
            .map_err(|error| file.mistake(error.span().unwrap_or_default(), error.message()))?;
        let mut config = Config {
            root,
            ..Config::default()
        };
        for (key, value) in in_order(document.get_ref()) {
            let name = key.get_ref().as_ref();
            match name {
                "servers" => config.servers = file.servers(name, value)?,
                "allow" => config.allowed = file.allowed(name, value)?,
                "keys-from-name" => config.keys_from_name = file.boolean(name, value)?,
                "cluster" => config.cluster = file.boolean(name, value)?,
                "exclude" => config.exclude = file.globs(name, value)?,
                "skip" => config.skip = file.globs(name, value)?,
                "files" => config.files = file.file_rules(value)?,
                _ if value.get_ref().is_table() => {
                    return Err(file.mistake(
                        key.span(),
                        format!("`[{name}]`: the only tables are `[files.\"<glob>\"]`"),
                    ));
                }
                _ => {
                    return Err(file.mistake(
                        key.span(),
                        format!("unknown key `{name}`: the keys here are {TOP_KEYS}"),
                    ));
                }
            }
        }
        let globs: Vec<&str> = config.files.iter().map(|rule| rule.glob.as_str()).collect();
        // Each glob was read on its own already: they parse.
        config.file_globs = Globs::new(&globs).map_err(|(_, message)| (1, message))?;
        Ok(config)
    }

    /// What the config says of the file at `path`.
    pub fn for_file(&self, path: &Path) -> ForFile {
        let relative = relative_to(path, &self.root);
        let mut settings = ForFile {
            excluded: self.exclude.matches(&relative),
            keys: None,
            servers: self.servers,
            allowed: self.allowed,
        };
        for index in self.file_globs.matching(&relative) {
            let rule = &self.files[index];
            settings.keys = rule.keys.or(settings.keys);
            if !rule.servers.is_empty() {
                settings.servers = rule.servers;
            }
            settings.allowed = settings.allowed.union(rule.allowed);
        }
        settings
    }
}

type Entry<'t, 'i> = (&'t Spanned<Cow<'i, str>>, &'t Spanned<DeValue<'i>>);

/// The entries of `table` in the order they are written (the parser keeps
/// them sorted by name).
fn in_order<'t, 'i>(table: &'t DeTable<'i>) -> Vec<Entry<'t, 'i>> {
    let mut entries: Vec<Entry<'t, 'i>> = table.iter().collect();
    entries.sort_by_key(|(key, _)| key.span().start);
    entries
}

/// The text of the file, which the values of its document point into: a
/// mistake is said at the line of the value (or the item) that is wrong.
struct File<'t> {
    text: &'t str,
}

impl File<'_> {
    /// `message`, at the line where `span` starts.
    fn mistake(&self, span: Range<usize>, message: impl Into<String>) -> Mistake {
        let before = &self.text.as_bytes()[..span.start.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        (line, message.into())
    }

    /// The `[files."glob"]` tables, each with its glob checked.
    fn file_rules(&self, value: &Spanned<DeValue<'_>>) -> Result<Vec<FileRule>, Mistake> {
        let Some(tables) = value.get_ref().as_table() else {
            return Err(self.mistake(value.span(), "`files` holds tables: `[files.\"<glob>\"]`"));
        };
        let mut rules = Vec::new();
        for (glob, table) in in_order(tables) {
            let glob_text = glob.get_ref().as_ref();
            Globs::new(&[glob_text]).map_err(|(_, message)| self.mistake(glob.span(), message))?;
            let Some(table) = table.get_ref().as_table() else {
                return Err(self.mistake(
                    glob.span(),
                    format!(
                        "`files.\"{glob_text}\"` is not a table: write `[files.\"{glob_text}\"]` \
                         and its keys below it"
                    ),
                ));
            };
            let mut rule = FileRule {
                glob: glob_text.to_owned(),
                keys: None,
                servers: Servers::empty(),
                allowed: Allowed::NONE,
            };
            for (key, value) in in_order(table) {
                let name = key.get_ref().as_ref();
                match name {
                    "keys" => rule.keys = Some(self.keys(value)?),
                    "servers" => rule.servers = self.servers(name, value)?,
                    "allow" => rule.allowed = self.allowed(name, value)?,
                    _ => {
                        return Err(self.mistake(
                            key.span(),
                            format!("unknown key `{name}`: the keys here are {FILE_KEYS}"),
                        ));
                    }
                }
            }
            rules.push(rule);
        }
        Ok(rules)
    }

    /// `keys = N`.
    fn keys(&self, value: &Spanned<DeValue<'_>>) -> Result<usize, Mistake> {
        let written = self.text.get(value.span()).unwrap_or_default().trim();
        let whole = match value.get_ref() {
            DeValue::Integer(integer) => {
                u64::from_str_radix(integer.as_str(), integer.radix()).ok()
            }
            _ => None,
        };
        let count = whole.map_or_else(|| written.to_owned(), |whole| whole.to_string());
        options::key_count(&count)
            .map_err(|why| self.mistake(value.span(), format!("`keys = {written}`: {why}")))
    }

    fn boolean(&self, name: &str, value: &Spanned<DeValue<'_>>) -> Result<bool, Mistake> {
        value
            .get_ref()
            .as_bool()
            .ok_or_else(|| self.mistake(value.span(), format!("`{name}` is true or false")))
    }

    /// An array of strings, each with where it is.
    fn strings<'v>(
        &self,
        name: &str,
        value: &'v Spanned<DeValue<'_>>,
    ) -> Result<Vec<Spanned<&'v str>>, Mistake> {
        let wrong = |span| {
            let example = format!("`{name} = [\"a\", \"b\"]`");
            self.mistake(
                span,
                format!("`{name}` is an array of strings, e.g. {example}"),
            )
        };
        let items = value
            .get_ref()
            .as_array()
            .ok_or_else(|| wrong(value.span()))?;
        items
            .iter()
            .map(|item| match item.get_ref().as_str() {
                Some(text) => Ok(Spanned::new(item.span(), text)),
                None => Err(wrong(item.span())),
            })
            .collect()
    }

    fn servers(&self, name: &str, value: &Spanned<DeValue<'_>>) -> Result<Servers, Mistake> {
        let mut servers = Servers::empty();
        for item in self.strings(name, value)? {
            let server = options::server(item.get_ref());
            servers = servers.with(server.map_err(|m| self.mistake(item.span(), m))?);
        }
        Ok(servers)
    }

    fn allowed(&self, name: &str, value: &Spanned<DeValue<'_>>) -> Result<Allowed, Mistake> {
        let mut allowed = Allowed::NONE;
        for item in self.strings(name, value)? {
            let rule = options::rule(item.get_ref());
            allowed = allowed.with(rule.map_err(|m| self.mistake(item.span(), m))?);
        }
        Ok(allowed)
    }

    /// `exclude` or `skip`; a glob that does not parse is named at its line.
    fn globs(&self, name: &str, value: &Spanned<DeValue<'_>>) -> Result<Globs, Mistake> {
        let items = self.strings(name, value)?;
        let texts: Vec<&str> = items.iter().map(|item| *item.get_ref()).collect();
        Globs::new(&texts).map_err(|(index, message)| {
            let span = items.get(index).map_or(value.span(), Spanned::span);
            self.mistake(span, format!("`{name}`: {message}"))
        })
    }
}

/// `path` relative to `root`, with `/` between folders.
pub(crate) fn relative_to(path: &Path, root: &Path) -> String {
    let absolute = |path: &Path| {
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    };
    let (path, root) = (absolute(path), absolute(root));
    slashed(path.strip_prefix(&root).unwrap_or(&path))
}

/// `path`'s parts joined with `/` (each shown lossily if not UTF-8).
pub(crate) fn slashed(path: &Path) -> String {
    let mut text = String::new();
    for part in path.components() {
        if !text.is_empty() && !text.ends_with('/') {
            text.push('/');
        }
        match part {
            Component::RootDir => text.push('/'),
            other => text.push_str(&other.as_os_str().to_string_lossy()),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use redis_script_analyzer::Rule;
    use redis_script_analyzer::servers::Server;

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
        // Not set: the default.
        assert_eq!(config.skip.texts(), DEFAULT_SKIP);
    }

    /// What the former reader refused: literal strings, escapes, inline
    /// tables, dotted keys, comments and trailing commas anywhere.
    #[test]
    fn reads_any_toml() {
        let text = r#"
            servers = [ 'redis-7.0',  # the oldest
                        "\u0076alkey-9.1" ]
            exclude = ['gen\*.lua', "a\"b"]
            skip = []
            files = { 'cmd/*.lua' = { keys = 2 }, "cmd/b.lua" = { allow = ["unread"] } }
        "#;
        let config = Config::parse(text, PathBuf::from("/nowhere")).unwrap();
        assert_eq!(
            config.servers,
            Servers::only(Server::Redis7_0).with(Server::Valkey9_1)
        );
        assert_eq!(config.exclude.texts(), ["gen\\*.lua", "a\"b"]);
        assert!(config.skip.texts().is_empty());
        let globs: Vec<&str> = config.files.iter().map(|rule| rule.glob.as_str()).collect();
        assert_eq!(globs, ["cmd/*.lua", "cmd/b.lua"]);
        let b = config.for_file(Path::new("/nowhere/cmd/b.lua"));
        assert_eq!(b.keys, Some(2));
        assert!(b.allowed.allows(Rule::Unread));
        let dotted = "files.\"c.lua\".keys = 3\nfiles.'c.lua'.servers = ['redis-8.2']\n";
        let config = Config::parse(dotted, PathBuf::from("/nowhere")).unwrap();
        let c = config.for_file(Path::new("/nowhere/cmd/c.lua"));
        assert_eq!(
            (c.keys, c.servers),
            (Some(3), Servers::only(Server::Redis8_2))
        );
    }

    #[test]
    fn the_tables_apply_in_the_order_written() {
        // Sorted by name, `a` would come first and lose to `z`.
        let text = "[files.\"z/*.lua\"]\nkeys = 1\n[files.\"*.lua\"]\nkeys = 2\n";
        let config = Config::parse(text, PathBuf::from("/nowhere")).unwrap();
        assert_eq!(config.for_file(Path::new("/nowhere/z/a.lua")).keys, Some(2));
    }

    #[test]
    fn mistakes_name_their_line() {
        for (text, line, expected) in [
            ("serves = []", 1, "unknown key `serves`"),
            ("\nkeys = 2", 2, "unknown key `keys`"),
            ("[files.\"a\"]\nkeys = x", 2, "string values must be quoted"),
            ("[files.\"a\"]\nkeys = \"two\"", 2, "whole number"),
            ("[files.\"a\"]\nkeys = -1", 2, "whole number"),
            ("[files.\"a\"]\nkeys = 2.5", 2, "whole number"),
            ("[files.\"a\"]\nkeys = 20000", 2, "at most 10000 keys"),
            (
                "[files.\"a\"]\n\nkey = 2",
                3,
                "unknown key `key`: the keys here are `keys`",
            ),
            ("[other]", 1, "the only tables"),
            ("files = 1", 1, "`files` holds tables"),
            ("[files]\na = 1", 2, "`files.\"a\"` is not a table"),
            (
                "allow = [\n  'unread',\n  'unknown_comands',\n]",
                3,
                "unknown rule `unknown_comands`",
            ),
            ("allow = [\"syntax\"]", 1, "cannot be allowed"),
            ("servers = [\"redis-6\"]", 1, "unknown server"),
            (
                "servers = \"redis-7.0\"",
                1,
                "`servers` is an array of strings",
            ),
            ("exclude = [\"a\"", 1, "expected"),
            (
                "exclude = [\n  \"a\",\n  \"[b\",\n]",
                3,
                "`exclude`: the glob `[b`",
            ),
            ("[files.\"src/{a\"]", 1, "the glob `src/{a`"),
            ("keys-from-name = yes", 1, "string values must be quoted"),
            ("keys-from-name = 1", 1, "true or false"),
            ("cluster = true\ncluster = false", 2, "duplicate key"),
        ] {
            let (at, message) = Config::parse(text, PathBuf::new()).unwrap_err();
            assert_eq!(at, line, "{text}: {message}");
            assert!(message.contains(expected), "{text}: {message}");
        }
    }
}
