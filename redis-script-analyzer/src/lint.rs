//! The checks of a Lua file on its own, with no Rust declaration: what the
//! `redis-lua` command-line tool runs on each file, with the same engine
//! and messages as `#[redis_script]`.
//!
//! [`check_file`] composes the file (its `--- @include`s), and then:
//! - a Redis Functions library (`#!lua name=...`) has every function it
//!   registers checked ([`library::analyze_library`]);
//! - a script with a signature header (`---@key`, `---@param`,
//!   `---@return`) is checked against it ([`Header::declared`]), as
//!   `scripts!` checks it;
//! - any other script is checked with the number of keys the caller knows
//!   ([`FileOptions::keys`]), or from its name (`name-N.lua`, BullMQ's
//!   convention, when [`FileOptions::keys_from_name`]), or else with the
//!   number unknown: no `KEYS[n]` is then out of range. Its ARGV count is
//!   always unknown, and its reply unchecked; a key it never reads is
//!   reported only against a header, which says what each key is.

use std::path::Path;

use crate::compose::{self, Composed};
use crate::fix::{self, CodeLines, FileFix};
use crate::header::{self, Header};
use crate::reply_type::RustType;
use crate::servers::Servers;
use crate::{
    Allowed, Checker, Declared, Diagnostic, Rule, Severity, Span, Target, library, reply_type,
    report,
};
use report::{Snippet, Style};

pub use crate::sources::{SourceFile, SourceFiles};

/// What a caller knows about a file beyond its text.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FileOptions {
    /// The servers it must run on.
    pub(crate) servers: Servers,
    /// Its number of keys, when the caller knows it (a header still
    /// decides); at most [`MAX_KEYS`] for a caller that takes it from users.
    pub(crate) keys: Option<usize>,
    /// Whether a name `name-N.lua` says it takes N keys.
    pub(crate) keys_from_name: bool,
    /// The rules not to report.
    pub(crate) allowed: Allowed,
    /// Whether the scripts must run on Redis Cluster (see [`Declared::cluster`]).
    pub(crate) cluster: bool,
}

/// Built from [`FileOptions::default`], one setting at a time:
/// `FileOptions::default().keys(Some(2))`.
impl FileOptions {
    /// The servers it must run on.
    #[must_use]
    pub fn servers(mut self, servers: Servers) -> FileOptions {
        self.servers = servers;
        self
    }

    /// Its number of keys, when the caller knows it (a header still
    /// decides); at most [`MAX_KEYS`] for a caller that takes it from users.
    #[must_use]
    pub fn keys(mut self, keys: Option<usize>) -> FileOptions {
        self.keys = keys;
        self
    }

    /// Whether a name `name-N.lua` says it takes N keys.
    #[must_use]
    pub fn keys_from_name(mut self, keys_from_name: bool) -> FileOptions {
        self.keys_from_name = keys_from_name;
        self
    }

    /// The rules not to report.
    #[must_use]
    pub fn allowed(mut self, allowed: Allowed) -> FileOptions {
        self.allowed = allowed;
        self
    }

    /// Whether the scripts must run on Redis Cluster (see [`Declared::cluster`]).
    #[must_use]
    pub fn cluster(mut self, cluster: bool) -> FileOptions {
        self.cluster = cluster;
        self
    }
}

impl Default for FileOptions {
    fn default() -> FileOptions {
        FileOptions {
            servers: Servers::ALL,
            keys: None,
            keys_from_name: true,
            allowed: Allowed::NONE,
            cluster: false,
        }
    }
}

/// What a file is, as checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// A script (EVAL), with its signature header, which declares this
    /// many keys (the fixed ones, with a variadic `---@key ...` list).
    Headed(usize),
    /// A script whose number of keys came from the caller or its name.
    Keyed(usize),
    /// A script whose number of keys is unknown.
    Unkeyed,
    /// A Redis Functions library.
    Library,
    /// A file whose includes could not be composed.
    Uncomposed,
}

/// One finding: its rule, what is wrong, and where, as a byte span of one
/// of the report's files ([`FileReport::files`]). Lines and columns, and
/// the text people read, are made from the report when it is shown
/// ([`FileReport::line_column`], [`FileReport::snippet`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// Its rule.
    pub rule: Rule,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub note: Option<String>,
    /// The index, in [`FileReport::files`], of the file it is in: 0 for the
    /// file checked, another for a file it includes.
    pub file: usize,
    /// The bytes of that file it is about.
    pub span: Span,
    /// The changes that correct it, in the file it is in: the
    /// [certain](fix::Applicability::Certain) one when there is one, then
    /// for a rule the tool may allow, an allow comment above its line
    /// ([suggested](fix::Applicability::Suggested)).
    pub fixes: Vec<FileFix>,
}

/// The findings on one file.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FileReport {
    /// What the file was checked as.
    pub kind: FileKind,
    /// Every finding, in the order the checks ran.
    pub findings: Vec<Finding>,
    /// The file checked (index 0) and the files its includes brought in,
    /// as read: the text the findings' spans are in.
    pub files: SourceFiles,
    /// The files its includes brought in (paths as read), not counting
    /// itself; when they could not all be composed, those reached before
    /// the error.
    pub included: Vec<std::path::PathBuf>,
}

impl FileReport {
    /// The file `finding` is in.
    pub fn file(&self, finding: &Finding) -> &SourceFile {
        &self.files[finding.file.min(self.files.len() - 1)]
    }

    /// The 1-based line and column (in characters) where `finding` starts,
    /// and where it ends (the column exclusive), in its file, as Lua counts
    /// lines ([`report::locate`]).
    pub fn line_column(&self, finding: &Finding) -> ((usize, usize), (usize, usize)) {
        let span = finding.span;
        (
            self.files.line_column(finding.file, span.start),
            self.files
                .line_column(finding.file, span.end.max(span.start)),
        )
    }

    /// The includes that brought `finding`'s file into the script, nearest
    /// first: each including file, as shown, and the line of its directive
    /// (empty for a finding in the file checked).
    pub fn included_from(&self, finding: &Finding) -> Vec<(&str, usize)> {
        self.files.included_from(finding.file)
    }

    /// `finding` ready to draw: its line quoted, its note, and the
    /// includes that brought its file in. [`Style::Macro`] draws it as
    /// `#[redis_script]` shows it; [`Style::Terminal`] heads it with
    /// `error[rule]:`, and the caller may add lines ([`Snippet::aside`]).
    pub fn snippet<'a>(&'a self, finding: &'a Finding) -> Snippet<'a> {
        let snippet = self
            .files
            .snippet(finding.file, finding.span, &finding.message)
            .note(finding.note.as_deref())
            .headline(finding.severity, finding.rule);
        if self.kind == FileKind::Uncomposed {
            // As `#[redis_script]` shows a composition's error
            // ([`compose::ComposeError::render`]): the message says how the
            // file was reached when that matters (a cycle lists the files).
            return snippet.included_from(Vec::new());
        }
        snippet
    }

    /// `finding` as `#[redis_script]` shows it: the message, `-->
    /// file:line:col`, the line, a caret, the note, the include chain.
    pub fn rendered(&self, finding: &Finding) -> String {
        self.snippet(finding).render(Style::Macro)
    }
}

/// The files the includes of the script at `path` (whose text is `source`)
/// bring in, as [`FileReport::included`] lists them, without checking
/// anything: what a script the caller does not check still makes a fragment.
pub fn included_files(
    path: &Path,
    source: impl Into<Vec<u8>>,
    read: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
) -> Vec<std::path::PathBuf> {
    let display = path.to_string_lossy();
    match compose::compose(&display, path, source, read) {
        Ok(composed) => composed.files[1..]
            .iter()
            .map(|file| file.path.clone())
            .collect(),
        Err(error) => error.reached,
    }
}

/// Checks the file `display` (at `path`, whose text is `source`: a
/// `String`, or bytes that need not be UTF-8), reading the files it
/// includes with `read`. Lines and columns are counted as the server
/// counts them ([`report::locate`]).
pub fn check_file(
    display: &str,
    path: &Path,
    source: impl Into<Vec<u8>>,
    read: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
    options: &FileOptions,
) -> FileReport {
    let composed = match compose::compose(display, path, source, read) {
        Ok(composed) => composed,
        Err(error) => {
            let error = *error;
            let finding = Finding {
                rule: Rule::Include,
                severity: Severity::Error,
                message: error.message,
                note: error.note,
                file: error.file,
                span: error.span,
                fixes: Vec::new(),
            };
            return FileReport {
                kind: FileKind::Uncomposed,
                findings: vec![finding],
                files: error.files,
                // Fragments still: checked on their own, they would be
                // reported as scripts, with the includer's locals unknown.
                included: error.reached,
            };
        }
    };
    let included = composed.files[1..]
        .iter()
        .map(|file| file.path.clone())
        .collect();
    let own = &composed.files[0].source;
    // The header is ASCII syntax: its spans still index the bytes.
    let own_text = crate::text::same_offsets(own);
    let mut declared = Declared {
        allowed: options.allowed,
        servers: options.servers,
        checker: Checker::CommandLine,
        cluster: options.cluster,
        // Unknown until a header or the caller says.
        variadic: true,
        variadic_keys: true,
        ..Declared::default()
    };
    if is_library(own) {
        if let Some(keys) = options.keys {
            declared.keys = keys;
            declared.variadic_keys = false;
            declared.allowed = declared.allowed.with(Rule::Unread);
        }
        let analysis = library::analyze_library(&composed.text, declared);
        let findings = findings(&composed, None, &analysis.diagnostics);
        return FileReport {
            kind: FileKind::Library,
            findings,
            files: composed.files,
            included,
        };
    }
    let mut findings_before = Vec::new();
    let mut header_ok = true;
    let (kind, header) = match header::parse_optional(&own_text) {
        Ok(Some(header)) => {
            let from_header = header.declared();
            declared = Declared {
                allowed: declared.allowed,
                servers: declared.servers,
                checker: declared.checker,
                cluster: declared.cluster,
                ..from_header
            };
            (FileKind::Headed(header.keys.len()), Some(header))
        }
        result => {
            if let Err(errors) = result {
                header_ok = false;
                for error in errors {
                    findings_before.push(Finding {
                        rule: Rule::Header,
                        severity: Severity::Error,
                        message: format!("in the script's header: {}", error.message),
                        note: error.note,
                        file: 0,
                        span: error.span,
                        fixes: Vec::new(),
                    });
                }
            }
            let keys = options.keys.or_else(|| {
                options
                    .keys_from_name
                    .then(|| keys_from_name(path))
                    .flatten()
            });
            match keys {
                Some(keys) => {
                    declared.keys = keys;
                    declared.variadic_keys = false;
                    // A count is no declaration of what each key is for:
                    // one never read may be there for cluster slot routing.
                    declared.allowed = declared.allowed.with(Rule::Unread);
                    (FileKind::Keyed(keys), None)
                }
                None => (FileKind::Unkeyed, None),
            }
        }
    };
    let analysis = crate::analyze(&composed.text, declared);
    // As `#[redis_script]` does: a declaration with errors of its own (here,
    // a header that does not parse) is not held against the script.
    let diagnostics: Vec<Diagnostic> = analysis
        .diagnostics
        .into_iter()
        .filter(|diagnostic| header_ok || diagnostic.target == Target::File)
        .collect();
    let mut all = findings_before;
    all.extend(findings(&composed, header.as_ref(), &diagnostics));
    FileReport {
        kind,
        findings: all,
        files: composed.files,
        included,
    }
}

/// Whether the file is a Redis Functions library: its first line is `#!lua`
/// with a `name=` option.
pub fn is_library<S: AsRef<[u8]> + ?Sized>(source: &S) -> bool {
    let source = source.as_ref();
    let first = crate::text::same_offsets(&source[..crate::text::line_end(source, 0)]);
    first.starts_with("#!lua")
        && first
            .split_whitespace()
            .any(|word| word.starts_with("name="))
}

/// The most keys a caller may give a script ([`FileOptions::keys`]): far
/// above any real script's fixed count; a larger number is a mistake.
pub const MAX_KEYS: usize = 10_000;

/// N of a file named `name-N.lua` (BullMQ's convention: N keys), for N of
/// one to three digits: a longer number is a date or a version
/// (`migrate-20240101.lua`), not a key count.
pub fn keys_from_name(path: &Path) -> Option<usize> {
    let stem = path.file_stem()?.to_str()?;
    let (name, count) = stem.rsplit_once('-')?;
    if name.is_empty()
        || !(1..=3).contains(&count.len())
        || !count.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    count.parse().ok()
}

/// Each diagnostic on the composed text, placed where its text is, with
/// its fixes there.
fn findings(
    composed: &Composed,
    header: Option<&Header>,
    diagnostics: &[Diagnostic],
) -> Vec<Finding> {
    // Each file's lines of code, read when a finding there first needs them.
    let mut code: Vec<Option<CodeLines>> = composed.files.iter().map(|_| None).collect();
    diagnostics
        .iter()
        .map(|diagnostic| {
            let mut message = diagnostic.message.clone();
            let mut span = diagnostic.span;
            let unread = matches!(diagnostic.target, Target::Key(_) | Target::Arg(_));
            if let (true, Some(header)) = (unread, header) {
                // A declared value is shown at its header line, by its name.
                let value = match diagnostic.target {
                    Target::Key(index) => header.keys.get(index),
                    Target::Arg(index) => header.args.get(index),
                    _ => None,
                };
                if let Some(value) = value {
                    span = value.span;
                    message = diagnostic
                        .target
                        .unread_message("the script", &format!("`{}`", value.name))
                        .unwrap_or(message);
                }
            }
            let (file, file_span) = composed.locate(span);
            let index = composed.files.index_of(file);
            let lines = composed.files.lines(index);
            let mut fixes: Vec<FileFix> = diagnostic
                .fix
                .iter()
                .filter_map(|fix| fix::place(fix, composed, index))
                .collect();
            if diagnostic.rule.allowable_by(Checker::CommandLine) {
                let code = code[index].get_or_insert_with(|| CodeLines::new(&file.source));
                fixes.extend(fix::allow_here(
                    diagnostic.rule,
                    &file.path,
                    &file.source,
                    lines,
                    code,
                    file_span.start,
                ));
            }
            Finding {
                rule: diagnostic.rule,
                severity: diagnostic.severity,
                message,
                note: diagnostic.note.clone(),
                file: index,
                span: file_span,
                fixes,
            }
        })
        .collect()
}

impl Header {
    /// The declaration the header stands for, as `scripts!` binds it: its
    /// keys and arguments, its tail, and what its reply type holds (the
    /// reply type of `---@return T` is the Rust type `scripts!` gives T,
    /// judged by [`reply_type`] as the macro judges a declared one).
    pub fn declared(&self) -> Declared {
        let ty = self
            .reply
            .as_ref()
            .map_or(RustType::Unit, |reply| reply.ty.reply_rust_type());
        Declared {
            keys: self.keys.len(),
            args: self.args.len(),
            variadic: self.variadic.is_some(),
            variadic_keys: self.variadic_keys.is_some(),
            reply: reply_type::reply_kind(&ty),
            reply_type: ty,
            ..Declared::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn check(name: &str, source: &str, options: &FileOptions) -> FileReport {
        check_file(
            name,
            Path::new(name),
            source.to_owned(),
            &mut |_| Err(std::io::ErrorKind::NotFound.into()),
            options,
        )
    }

    fn rules(report: &FileReport) -> Vec<Rule> {
        report.findings.iter().map(|f| f.rule).collect()
    }

    #[test]
    fn unknown_keys_skip_the_keys_checks() {
        let script = "return redis.call('GET', KEYS[3])";
        let report = check("get.lua", script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Unkeyed);
        assert_eq!(rules(&report), []);
        let report = check("get-2.lua", script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Keyed(2));
        assert_eq!(rules(&report), [Rule::OutOfRange]);
        let without_names = FileOptions {
            keys_from_name: false,
            ..FileOptions::default()
        };
        assert_eq!(
            check("get-2.lua", script, &without_names).kind,
            FileKind::Unkeyed
        );
        let keyed = FileOptions {
            keys: Some(1),
            ..FileOptions::default()
        };
        assert_eq!(rules(&check("get.lua", script, &keyed)), [Rule::OutOfRange]);
    }

    #[test]
    fn names_give_keys_only_in_the_convention() {
        for (name, keys) in [
            ("addJob-9.lua", Some(9)),
            ("a/b/moveToFinished-14.lua", Some(14)),
            ("lock.lua", None),
            ("-3.lua", None),
            ("v-1a.lua", None),
            ("queue-999.lua", Some(999)),
            ("migrate-20240101.lua", None),
            ("x-99999999999999999999999.lua", None),
        ] {
            assert_eq!(keys_from_name(Path::new(name)), keys, "{name}");
        }
    }

    #[test]
    fn a_file_is_read_as_the_server_reads_it() {
        // Bytes that are not UTF-8 in a comment and a string, and each of
        // Lua's line endings: the finding is on the third line, as the
        // server would number it.
        for ending in ["\n", "\r\n", "\r", "\n\r"] {
            let mut source = Vec::new();
            for line in [
                &b"-- caf\xe9"[..],
                b"local s = '\xff'",
                b"return redis.call('NOPE', s)",
            ] {
                source.extend_from_slice(line);
                source.extend_from_slice(ending.as_bytes());
            }
            let report = check_file(
                "x.lua",
                Path::new("x.lua"),
                source.clone(),
                &mut |_| Err(std::io::ErrorKind::NotFound.into()),
                &FileOptions::default(),
            );
            assert_eq!(
                rules(&report),
                [Rule::UnknownCommands],
                "{ending:?}: {report:?}"
            );
            let ((line, _), (end_line, _)) = report.line_column(&report.findings[0]);
            assert_eq!((line, end_line), (3, 3), "{ending:?}");
            let rendered = report.rendered(&report.findings[0]);
            assert!(
                rendered.contains("3 | return redis.call('NOPE', s)\n"),
                "{ending:?}: {rendered}"
            );
            // A syntax error too: on the line Lua names (`user_script:3:`).
            let broken = [&source[..source.len() - ending.len()], b" +"].concat();
            let report = check_file(
                "x.lua",
                Path::new("x.lua"),
                broken,
                &mut |_| Err(std::io::ErrorKind::NotFound.into()),
                &FileOptions::default(),
            );
            assert_eq!(rules(&report), [Rule::Syntax], "{ending:?}: {report:?}");
            assert_eq!(report.line_column(&report.findings[0]).0.0, 3, "{ending:?}");
        }
        // A byte that is not UTF-8 outside a string is the server's syntax error.
        let report = check_file(
            "x.lua",
            Path::new("x.lua"),
            b"local s = 1\nreturn s \xff".to_vec(),
            &mut |_| Err(std::io::ErrorKind::NotFound.into()),
            &FileOptions::default(),
        );
        assert_eq!(rules(&report), [Rule::Syntax], "{report:?}");
        let finding = &report.findings[0];
        let ((line, column), _) = report.line_column(finding);
        assert_eq!(
            (line, column, finding.message.as_str()),
            (2, 10, "Lua syntax error: '<eof>' expected near '\u{fffd}'")
        );
    }

    #[test]
    fn a_header_is_the_declaration() {
        let script = "---@key lock string\n---@param ttl integer\n---@return integer\n\
                      return redis.call('GET', KEYS[1])";
        let report = check("x.lua", script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Headed(1));
        // GET can reply nil into an integer; ARGV[1] is never read.
        assert_eq!(rules(&report), [Rule::Unread, Rule::NilReply], "{report:?}");
        assert!(report.findings[0].message.contains("`ttl`"));
        assert_eq!(report.line_column(&report.findings[0]).0.0, 2);
    }

    #[test]
    fn each_of_many_findings_is_placed_at_its_own_line() {
        let mut script = String::new();
        for i in 0..2_000 {
            script.push_str(&format!("---@key k{i} string\n"));
        }
        script.push_str("---@return integer\nredis.call('GET', KEYS[1])\nreturn 1\n");
        let report = check("keys.lua", &script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Headed(2_000));
        assert_eq!(report.findings.len(), 1_999);
        for (i, finding) in (1..2_000).zip(&report.findings) {
            assert_eq!(finding.rule, Rule::Unread);
            assert!(finding.message.contains(&format!("`k{i}`")), "{finding:?}");
            let (start, end) = report.line_column(finding);
            assert_eq!(start, (i + 1, 1));
            assert_eq!(end, (i + 1, 17 + i.to_string().len()));
            assert!(
                report
                    .rendered(finding)
                    .contains(&format!("--> keys.lua:{}:1", i + 1))
            );
        }
    }

    #[test]
    fn a_headers_key_list_makes_its_keys_a_lower_bound() {
        let script = "---@key dest string\n---@key ... string\n---@return integer\n\
                      return redis.call('SUNIONSTORE', KEYS[1], KEYS[2], KEYS[3])";
        let report = check("x.lua", script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Headed(1));
        assert_eq!(rules(&report), [], "{report:?}");
        let without = script.replace("---@key ... string\n", "");
        let report = check("x.lua", &without, &FileOptions::default());
        assert_eq!(rules(&report), [Rule::OutOfRange, Rule::OutOfRange]);
    }

    #[test]
    fn inline_allows_silence_a_rule_and_typos_are_errors() {
        let script = "-- redis-lua: allow(unknown-commands)\nreturn redis.call('FOO')";
        assert_eq!(rules(&check("x.lua", script, &FileOptions::default())), []);
        let script = "-- redis-lua: allow(unknown_comands)\nreturn redis.call('FOO')";
        assert_eq!(
            rules(&check("x.lua", script, &FileOptions::default())),
            [Rule::Directive, Rule::UnknownCommands]
        );
        let script = "--redis-lua: allow(syntax)\nreturn";
        assert_eq!(
            rules(&check("x.lua", script, &FileOptions::default())),
            [Rule::Directive]
        );
    }

    #[test]
    fn a_failed_composition_still_lists_the_files_it_reached() {
        let disk = |path: &Path| match path.to_str() {
            Some("lib/a.lua") => Ok(b"--- @include \"b\"\nlocal a = 1\n".to_vec()),
            Some("lib/b.lua") => Ok(b"--- @include \"a\"\nlocal b = 2\n".to_vec()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        };
        let report = check_file(
            "main.lua",
            Path::new("main.lua"),
            "--- @include \"lib/a\"\nreturn 1\n".to_owned(),
            &mut { disk },
            &FileOptions::default(),
        );
        assert_eq!(report.kind, FileKind::Uncomposed);
        assert_eq!(rules(&report), [Rule::Include]);
        assert_eq!(
            report.included,
            [PathBuf::from("lib/a.lua"), PathBuf::from("lib/b.lua")]
        );
        assert_eq!(
            included_files(
                Path::new("main.lua"),
                "--- @include \"lib/a\"\n".to_owned(),
                &mut { disk }
            ),
            report.included
        );
    }

    #[test]
    fn a_finding_in_an_include_names_the_includes_that_brought_it_in() {
        let disk = |path: &Path| match path.to_str() {
            Some("lib/a.lua") => Ok(b"-- a\n--- @include \"b\"\n".to_vec()),
            Some("lib/b.lua") => Ok(b"redis.call('GETT', KEYS[1])\n".to_vec()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        };
        let report = check_file(
            "main.lua",
            Path::new("main.lua"),
            "--- @include \"lib/a\"\nreturn redis.call('SETT', KEYS[1])\n".to_owned(),
            &mut { disk },
            &FileOptions::default(),
        );
        let placed: Vec<(&str, Vec<(&str, usize)>)> = report
            .findings
            .iter()
            .map(|f| (report.file(f).display.as_str(), report.included_from(f)))
            .collect();
        assert_eq!(
            placed,
            [
                ("lib/b.lua", vec![("lib/a.lua", 2), ("main.lua", 1)]),
                ("main.lua", vec![]),
            ]
        );
        let rendered = report.rendered(&report.findings[0]);
        assert!(
            rendered.ends_with("= included from lib/a.lua:2\n  = included from main.lua:1"),
            "{rendered}"
        );
    }

    #[test]
    fn inline_allows_are_line_comments_as_lua_reads_them() {
        let options = FileOptions::default();
        // In a string: no allow, and no error.
        let script =
            "local s = '-- redis-lua: allow(unknown_commands)'\nreturn redis.call('FOO', s)";
        assert_eq!(
            rules(&check("x.lua", script, &options)),
            [Rule::UnknownCommands]
        );
        let script = "return \"-- redis-lua: done\"";
        assert_eq!(rules(&check("x.lua", script, &options)), []);
        let script = "return [[\n-- redis-lua: done\n]]";
        assert_eq!(rules(&check("x.lua", script, &options)), []);
        // A long comment is not a line comment.
        let script = "--[[ redis-lua: allow(unknown_commands) ]]\nreturn redis.call('FOO')";
        assert_eq!(
            rules(&check("x.lua", script, &options)),
            [Rule::UnknownCommands]
        );
        // After a string holding `--`, the comment is still read.
        let script = "---@key k string\nlocal s = \"--\" -- redis-lua: allow(unread)\nreturn s";
        assert_eq!(rules(&check("x.lua", script, &options)), []);
        let report = check("x.lua", "return 1 -- redis-lua: allow(nothing)", &options);
        assert_eq!(rules(&report), [Rule::Directive]);
        assert_eq!(report.line_column(&report.findings[0]).0, (1, 10));
        assert!(
            report.findings[0]
                .message
                .contains("unknown rule `nothing`")
        );
    }

    #[test]
    fn language_server_annotations_are_no_header() {
        let script = "---@diagnostic disable: undefined-global\n---@type string\n\
                      ---@class Job\n---@param x string|number\n\
                      return redis.call('GET', KEYS[1])";
        let report = check("x.lua", script, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Unkeyed);
        assert_eq!(rules(&report), []);
        // A signature among them is still read, and its mistakes reported.
        let script = "---@diagnostic disable: undefined-global\n---@key k string\n\
                      ---@param x string|number\nreturn redis.call('GET', KEYS[1])";
        assert_eq!(
            rules(&check("x.lua", script, &FileOptions::default())),
            [Rule::Header]
        );
    }

    #[test]
    fn libraries_have_every_function_checked() {
        let library = "#!lua name=lib\n\
            redis.register_function('a', function(keys, args) return redis.call('GETT', keys[1]) end)\n\
            redis.register_function('b', function(keys, args) return redis.call('SETT', keys[1]) end)\n";
        let report = check("lib.lua", library, &FileOptions::default());
        assert_eq!(report.kind, FileKind::Library);
        assert_eq!(
            rules(&report),
            [Rule::UnknownCommands, Rule::UnknownCommands]
        );
    }

    #[test]
    fn fixes_are_placed_in_the_file_their_text_is_in() {
        let disk = |path: &Path| match path.to_str() {
            Some("lib/get.lua") => Ok(
                "local function get(k)\n  return redis.call('GTE', k)\nend\n"
                    .as_bytes()
                    .to_vec(),
            ),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        };
        let report = check_file(
            "main.lua",
            Path::new("main.lua"),
            "local s = 'é'\n--- @include \"lib/get\"\nreturn get(KEYS[1]) .. s != ''\n".to_owned(),
            &mut { disk },
            &FileOptions::default(),
        );
        // The syntax error comes first: the rules wait for a script that parses.
        assert_eq!(rules(&report), [Rule::Syntax]);
        let fix = &report.findings[0].fixes[0];
        assert_eq!(fix.applicability, fix::Applicability::Certain);
        assert_eq!(fix.path, Path::new("main.lua"));
        let edit = &fix.edits[0];
        assert_eq!(edit.replacement, "~=");
        assert_eq!(
            (edit.start.line, edit.start.column, edit.start.line_offset),
            (3, 26, 25)
        );
        let before = "local s = 'é'\n--- @include \"lib/get\"\n".len();
        assert_eq!(edit.start.offset, before + 25);
        let report = check_file(
            "main.lua",
            Path::new("main.lua"),
            "local s = 'é'\n--- @include \"lib/get\"\nreturn get(KEYS[1]) .. s\n".to_owned(),
            &mut { disk },
            &FileOptions::default(),
        );
        assert_eq!(rules(&report), [Rule::UnknownCommands]);
        let finding = &report.findings[0];
        assert_eq!(
            (
                report.file(finding).display.as_str(),
                report.line_column(finding).0.0
            ),
            ("lib/get.lua", 2)
        );
        let [respell, allow] = &finding.fixes[..] else {
            panic!("{:?}", finding.fixes)
        };
        assert_eq!(respell.path, Path::new("lib/get.lua"));
        assert_eq!(respell.title, "replace `GTE` with `GET`");
        let edit = &respell.edits[0];
        assert_eq!(
            (
                edit.start.offset,
                edit.end.offset,
                edit.replacement.as_str()
            ),
            (43, 46, "GET")
        );
        assert_eq!(
            (edit.start.line, edit.start.column, edit.end.column),
            (2, 22, 25)
        );
        assert_eq!(allow.applicability, fix::Applicability::Suggested);
        assert_eq!(allow.path, Path::new("lib/get.lua"));
        assert_eq!(
            allow.edits[0].replacement,
            "  -- redis-lua: allow(unknown_commands)\n"
        );
        assert_eq!(
            (allow.edits[0].start.offset, allow.edits[0].start.line),
            (22, 2)
        );
    }

    #[test]
    fn an_allow_fix_allows_its_finding() {
        for script in [
            // In a header, as one of its lines: the header still declares.
            "--- Takes a lock.\n---@key lock string\n---@param ttl integer\n---@return integer\n\
             return redis.call('EXISTS', KEYS[1])\n",
            "local function f()\n\tif KEYS[1] then\n\t\treturn redis.call('GETT', KEYS[1])\n\
             \tend\nend\nreturn f()",
        ] {
            let report = check("x.lua", script, &FileOptions::default());
            let [finding] = &report.findings[..] else {
                panic!("{report:?}")
            };
            let allow = finding.fixes.last().expect("an allow");
            assert_eq!(allow.applicability, fix::Applicability::Suggested);
            let at = allow.edits[0].start.offset;
            let allowed = [&script[..at], &allow.edits[0].replacement, &script[at..]].concat();
            let again = check("x.lua", &allowed, &FileOptions::default());
            assert_eq!(again.kind, report.kind, "{allowed}");
            assert_eq!(rules(&again), [], "{allowed}");
        }
    }

    #[test]
    fn only_a_rule_the_tool_may_allow_has_an_allow_fix() {
        let report = check(
            "x.lua",
            "---@key k string\n---@return integer\nreturn redis.call('GET', KEYS[1])",
            &FileOptions::default(),
        );
        assert_eq!(rules(&report), [Rule::NilReply]);
        assert_eq!(report.findings[0].fixes.len(), 1);
        assert_eq!(report.findings[0].fixes[0].title, "allow `nil_reply` here");
        let report = check("x.lua", "return 1 +", &FileOptions::default());
        assert_eq!(rules(&report), [Rule::Syntax]);
        assert_eq!(report.findings[0].fixes, []);
    }
}
