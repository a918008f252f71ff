//! What a crate's scripts target, from its own `Cargo.toml`:
//!
//! ```toml
//! [package.metadata.redis-script]
//! servers = ["redis-7.0", "redis-8.2", "valkey-9.1"]   # the default when absent: all
//! cluster = true                                       # the default when absent: false
//! ```
//!
//! Read with a small, strict reader for exactly this table and its keys, so
//! the macro needs no TOML crate: Cargo has already checked that the file is
//! TOML, so what is left to check is that the table holds nothing but a
//! one-line or multi-line array of distinct, known server names and a
//! boolean. The rest of the file is ignored.

use std::path::{Path, PathBuf};

use proc_macro2::Span;

use redis_script_analyzer::servers::{Server, Servers};

/// The table, as `Cargo.toml` names it.
const TABLE: &str = "package.metadata.redis-script";
/// The key of the servers.
const KEY: &str = "servers";
/// The key of whether the scripts run on Redis Cluster.
const CLUSTER: &str = "cluster";

/// The manifest of the crate being compiled, and what it targets.
pub struct Manifest {
    /// Absolute; the expansion `include_bytes!`s it, so a change of the
    /// setting rebuilds the crate.
    pub path: PathBuf,
    pub servers: Servers,
    /// `cluster = true`: a key that does not come from KEYS is an error.
    pub cluster: bool,
}

impl Manifest {
    /// Reads `$CARGO_MANIFEST_DIR/Cargo.toml` (the directory script paths are
    /// relative to); errors point at `span`, the attribute.
    pub fn read(span: Span) -> syn::Result<Manifest> {
        let dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
            syn::Error::new(span, "CARGO_MANIFEST_DIR is not set: build with cargo")
        })?;
        let path = Path::new(&dir).join("Cargo.toml");
        let text = std::fs::read_to_string(&path).map_err(|error| {
            syn::Error::new(
                span,
                format!("cannot read {} for [{TABLE}]: {error}", path.display()),
            )
        })?;
        let (servers, cluster) =
            settings(&text).map_err(|error| syn::Error::new(span, error.render()))?;
        let path = path.canonicalize().unwrap_or(path);
        Ok(Manifest {
            path,
            servers,
            cluster,
        })
    }
}

/// A mistake in the table: what, and the line of `Cargo.toml` it is on.
#[derive(Debug, PartialEq, Eq)]
pub struct SettingError {
    pub message: String,
    /// 1-based.
    pub line: usize,
    pub text: String,
}

impl SettingError {
    /// The compile error: the mistake, the quoted line, the accepted values.
    fn render(&self) -> String {
        let number = self.line.to_string();
        let gutter = " ".repeat(number.len());
        format!(
            "redis-script: {} in [{TABLE}] of Cargo.toml\n\
             {gutter}--> Cargo.toml:{number}\n\
             {gutter} |\n\
             {number} | {}\n\
             {gutter} |\n\
             {gutter} = help: write `{KEY} = [...]` with one or more of {}, each once; \
             without the table, scripts are checked for all of them",
            self.message,
            self.text.trim_end(),
            Servers::ALL.quoted_keys()
        )
    }
}

/// The servers `Cargo.toml`'s text targets: [`Servers::ALL`] without the
/// table or the key.
#[cfg(test)]
pub fn servers(text: &str) -> Result<Servers, SettingError> {
    settings(text).map(|(servers, _)| servers)
}

/// The servers `Cargo.toml`'s text targets ([`Servers::ALL`] without the
/// table or the key), and whether the scripts run on Redis Cluster.
pub fn settings(text: &str) -> Result<(Servers, bool), SettingError> {
    let ours = dotted(TABLE);
    let mut lines = text.lines().enumerate();
    // The header the lines are under (empty at the top).
    let mut table: Vec<String> = Vec::new();
    let mut found: Option<Servers> = None;
    let mut cluster: Option<bool> = None;
    while let Some((index, raw)) = lines.next() {
        let error = |message: String| SettingError {
            message,
            line: index + 1,
            text: raw.to_owned(),
        };
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            table = header(line);
            if table.len() > ours.len() && table.starts_with(&ours) {
                return Err(error(format!(
                    "`{line}` is not a redis-script setting: they are `{KEY}` and `{CLUSTER}`"
                )));
            }
            continue;
        }
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        let key = key.trim();
        if table != ours {
            // A dotted key can reach into the table from above it
            // (`metadata.redis-script.servers` under `[package]`): Cargo
            // takes that, this reader does not, so it must not pass unread.
            let full: Vec<String> = table.iter().cloned().chain(dotted(key)).collect();
            if full.starts_with(&ours) {
                return Err(error(format!(
                    "`{key}` sets the redis-script settings outside their table: write them \
                     under a `[{TABLE}]` header"
                )));
            }
            continue;
        }
        // `"servers"` and `'servers'` are the same key in TOML.
        let key = key.trim_matches(['"', '\'']);
        if key == CLUSTER {
            if cluster.is_some() {
                return Err(error(format!("`{CLUSTER}` is set twice")));
            }
            cluster = Some(match value.trim() {
                "true" => true,
                "false" => false,
                _ => return Err(error(format!("`{CLUSTER}` is `true` or `false`"))),
            });
            continue;
        }
        if key != KEY {
            return Err(error(format!(
                "`{key}` is not a redis-script setting: they are `{KEY}` and `{CLUSTER}`"
            )));
        }
        if found.is_some() {
            return Err(error(format!("`{KEY}` is set twice")));
        }
        let mut array = Array::new(value.trim_start()).map_err(&error)?;
        let mut last = (index, raw);
        while !array.closed {
            let Some((index, raw)) = lines.next() else {
                return Err(error(format!(
                    "the array of `{KEY}` is not closed with `]`"
                )));
            };
            last = (index, raw);
            array
                .feed(strip_comment(raw))
                .map_err(|message| SettingError {
                    message,
                    line: index + 1,
                    text: raw.to_owned(),
                })?;
        }
        let servers = array.servers().map_err(|message| SettingError {
            message,
            line: last.0 + 1,
            text: last.1.to_owned(),
        })?;
        found = Some(servers);
    }
    Ok((found.unwrap_or_default(), cluster.unwrap_or(false)))
}

/// An array of server names being read, line by line.
struct Array {
    servers: Servers,
    /// Names read so far, to report one listed twice.
    seen: Vec<String>,
    closed: bool,
    /// Whether the next item may come without a comma first.
    expecting_item: bool,
}

impl Array {
    /// Starts at `value`, the text after `servers =`.
    fn new(value: &str) -> Result<Array, String> {
        let Some(rest) = value.strip_prefix('[') else {
            return Err(format!(
                "`{KEY}` takes an array of server names, e.g. `{KEY} = [\"valkey-8.1\"]`"
            ));
        };
        let mut array = Array {
            servers: Servers::empty(),
            seen: Vec::new(),
            closed: false,
            expecting_item: true,
        };
        array.feed(rest)?;
        Ok(array)
    }

    /// Reads one line's worth (comment stripped) of items, commas and `]`.
    fn feed(&mut self, mut text: &str) -> Result<(), String> {
        loop {
            text = text.trim_start();
            let Some(first) = text.chars().next() else {
                return Ok(());
            };
            if self.closed {
                return Err(format!("unexpected `{text}` after the array of `{KEY}`"));
            }
            match first {
                ']' => {
                    self.closed = true;
                    text = &text[1..];
                }
                ',' if !self.expecting_item => {
                    self.expecting_item = true;
                    text = &text[1..];
                }
                '"' | '\'' if self.expecting_item => {
                    let body = &text[1..];
                    let end = body
                        .find(first)
                        .ok_or_else(|| "a server name's string is not closed".to_owned())?;
                    let name = &body[..end];
                    if first == '"' && name.contains('\\') {
                        return Err(format!(
                            "`{name}` has an escape: server names are plain, e.g. \"valkey-8.1\""
                        ));
                    }
                    self.add(name)?;
                    self.expecting_item = false;
                    text = &body[end + 1..];
                }
                _ => {
                    let token = text.split([',', ']', ' ', '\t']).next().unwrap_or(text);
                    return Err(if self.expecting_item {
                        format!("expected a quoted server name, found `{token}`")
                    } else {
                        format!("expected `,` or `]` after a server name, found `{token}`")
                    });
                }
            }
        }
    }

    fn add(&mut self, name: &str) -> Result<(), String> {
        let server = Server::from_key(name)
            .ok_or_else(|| format!("`{name}` is not a server redis-script knows"))?;
        if self.seen.iter().any(|seen| seen == name) {
            return Err(format!("`{name}` is listed twice"));
        }
        self.seen.push(name.to_owned());
        self.servers = self.servers.with(server);
        Ok(())
    }

    fn servers(&self) -> Result<Servers, String> {
        if self.servers.is_empty() {
            return Err(format!("`{KEY}` is empty: name at least one server"));
        }
        Ok(self.servers)
    }
}

/// `line` without its `#` comment (a `#` inside a string stays).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (None, '#') => return &line[..at],
            (None, '"' | '\'') => quote = Some(c),
            (Some(open), _) if c == open => quote = None,
            _ => {}
        }
    }
    line
}

/// The dotted parts of a header or key, unquoted: `package . "metadata"` ->
/// `["package", "metadata"]`.
fn dotted(text: &str) -> Vec<String> {
    text.split('.')
        .map(|part| part.trim().trim_matches(['"', '\'']).to_owned())
        .collect()
}

/// The table a header names, unquoted (`[package . "metadata"]` ->
/// `["package", "metadata"]`); empty for `[[...]]`, an array of tables,
/// which is never ours.
fn header(line: &str) -> Vec<String> {
    match line.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(inner) if !inner.starts_with('[') => dotted(inner),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Servers {
        servers(text).unwrap_or_else(|error| panic!("{}", error.render()))
    }

    fn error(text: &str) -> SettingError {
        servers(text).expect_err(text)
    }

    #[test]
    fn cluster_is_a_boolean_beside_the_servers() {
        let table = "[package.metadata.redis-script]\n";
        assert_eq!(settings(""), Ok((Servers::ALL, false)));
        assert_eq!(
            settings(&format!(
                "{table}cluster = true\nservers = [\"valkey-9.1\"]\n"
            )),
            Ok((Servers::only(Server::Valkey9_1), true))
        );
        assert_eq!(
            settings(&format!("{table}\"cluster\" = false")),
            Ok((Servers::ALL, false))
        );
        for (text, message) in [
            ("cluster = yes", "`cluster` is `true` or `false`"),
            ("cluster = true\ncluster = true", "`cluster` is set twice"),
            (
                "clusters = true",
                "`clusters` is not a redis-script setting: they are `servers` and `cluster`",
            ),
        ] {
            assert_eq!(error(&format!("{table}{text}")).message, message, "{text}");
        }
    }

    const VALKEY_8_1: Servers = Servers::only(Server::Valkey8_1);

    #[test]
    fn absent_means_every_server() {
        assert_eq!(read(""), Servers::ALL);
        assert_eq!(read("[package]\nname = \"x\"\n"), Servers::ALL);
        assert_eq!(read("[package.metadata.redis-script]\n"), Servers::ALL);
        // Other tables, other metadata and keys of that name elsewhere are not ours.
        let others = "[package.metadata.docs.rs]\nservers = [1]\n\
                      [dependencies]\nservers = \"1\"\n[[bin]]\nname = \"b\"\n";
        assert_eq!(read(others), Servers::ALL);
    }

    #[test]
    fn one_line_multi_line_comments_and_quotes() {
        let one_line = "[package.metadata.redis-script]\nservers = [\"valkey-8.1\"]\n";
        assert_eq!(read(one_line), VALKEY_8_1);
        let spaced = "# comment\n[ package . metadata . \"redis-script\" ]  # here\n\
                      servers=['valkey-8.1',]   # trailing comma\n[dependencies]\nx = 1\n";
        assert_eq!(read(spaced), VALKEY_8_1);
        let multi = "[package.metadata.redis-script]\n\
                     servers = [\n  \"redis-7.0\", # the LTS\n\n  # and\n  \"valkey-8.1\",\n]\n";
        assert_eq!(
            read(multi),
            Servers::only(Server::Redis7_0).with(Server::Valkey8_1)
        );
        let all = "[package.metadata.redis-script]\n\
                   servers = [\"valkey-9.1\", \"redis-7.0\", \"valkey-8.1\", \"redis-8.2\",\n\
                   \"valkey-8.0\", \"redis-7.4\", \"redis-8.0\", \"redis-7.2\"]\n";
        assert_eq!(read(all), Servers::ALL);
        let valkey = "[package.metadata.redis-script]\n\
                      servers = [\"valkey-8.0\", \"valkey-8.1\", \"valkey-9.1\"]\n";
        assert_eq!(read(valkey), Servers::VALKEY);
        let redis = "[package.metadata.redis-script]\nservers = [ \"redis-7.0\" ]";
        assert_eq!(read(redis), Servers::only(Server::Redis7_0));
        let quoted_key = "[package.metadata.redis-script]\n\"servers\" = [\"valkey-8.1\"]\n";
        assert_eq!(read(quoted_key), VALKEY_8_1);
    }

    #[test]
    fn every_mistake_names_itself_and_its_line() {
        let table = "[package]\nname = \"x\"\n\n[package.metadata.redis-script]\n";
        let cases: &[(&str, &str, usize)] = &[
            (
                "servers = [\"redis-7.3\"]",
                "`redis-7.3` is not a server",
                5,
            ),
            (
                "servers = [\"valkey-8.1\", 'valkey-8.1']",
                "listed twice",
                5,
            ),
            ("servers = []", "is empty", 5),
            ("servers = \"valkey-8.1\"", "takes an array", 5),
            (
                "servers = [valkey]",
                "expected a quoted server name, found `valkey`",
                5,
            ),
            (
                "servers = [\"redis-7.0\" \"valkey-8.1\"]",
                "expected `,` or `]`",
                5,
            ),
            (
                "servers = [\"redis-7.0\"] x",
                "unexpected `x` after the array",
                5,
            ),
            (
                "servers = [\"valkey-8.1\"]\nservers = [\"redis-7.0\"]",
                "set twice",
                6,
            ),
            (
                "target = [\"valkey-8.1\"]",
                "`target` is not a redis-script setting",
                5,
            ),
            ("servers = [\n\"redis-7.0\",\n", "not closed", 5),
            (
                "servers = [\n\"redis-7.0\",\n\"nope\"\n]",
                "`nope` is not a server",
                7,
            ),
            ("servers = [\"valkey\\u002d8.1\"]", "has an escape", 5),
            ("servers = [\"valkey-8.1]", "not closed", 5),
        ];
        for (body, expected, line) in cases {
            let found = error(&format!("{table}{body}\n"));
            assert!(found.message.contains(expected), "{body}: {found:?}");
            assert_eq!(found.line, *line, "{body}: {found:?}");
        }
        let outside = error("[package]\nmetadata.redis-script.servers = [\"valkey-8.1\"]\n");
        assert!(
            outside.message.contains("outside their table"),
            "{outside:?}"
        );
        let top = error("package.metadata.redis-script = { servers = [] }\n");
        assert_eq!(top.line, 1);
        let nested = error("[package.metadata.redis-script.more]\nx = 1\n");
        assert!(
            nested.message.contains("not a redis-script setting"),
            "{nested:?}"
        );
        // The dependency of that name is not the setting.
        let dependency = "[dependencies]\nredis-script = { path = \"..\" }\n";
        assert_eq!(read(dependency), Servers::ALL);
    }

    #[test]
    fn the_error_quotes_the_line_and_lists_the_accepted_values() {
        let text = "[package.metadata.redis-script]\nservers = [\"redis-6\"]  # old\n";
        let rendered = error(text).render();
        assert!(
            rendered.contains("2 | servers = [\"redis-6\"]  # old"),
            "{rendered}"
        );
        assert!(rendered.contains("--> Cargo.toml:2"), "{rendered}");
        assert!(
            rendered.contains(
                "\"redis-7.0\", \"redis-7.2\", \"redis-7.4\", \"redis-8.0\", \"redis-8.2\""
            ),
            "{rendered}"
        );
    }
}
