//! A document checked as `redis-lua check` checks its file: the nearest
//! `redis-lua.toml` from the file's folder up, its settings for that file
//! (an excluded file gets no diagnostics), its signature header, and its
//! `--- @include`s read from the open documents first, then from disk.
//!
//! A finding in a file the document includes is published on the document,
//! at the `--- @include` line that brings that file in, its message starting
//! with the file, line and column, and with the exact place as related
//! information. Not on the included file's own URI: a client keeps one set
//! of diagnostics per URI, which the included file's own check (when it is
//! open) publishes, and the same fragment may be included by several
//! scripts with different findings in each.
//!
//! A document that scripts of the workspace include (a fragment, such as
//! BullMQ's `includes/*.lua`, which uses its includer's `local rcall =
//! redis.call`) is checked where it is included, as `redis-lua check`
//! checks it: each script that includes it (up to [`MOST_INCLUDERS`](super::includers::MOST_INCLUDERS), from
//! the workspace's [`IncludeIndex`]) is
//! checked, and the findings in the document's text, merged, are its
//! diagnostics, with their fixes and the include line as related
//! information.

use std::ops::Range;
use std::path::{Path, PathBuf};

use redis_script_analyzer::lint::{self, Finding};
use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{Severity, compose};

use super::documents::{Document, Documents};
use super::includers::IncludeIndex;
use super::position::LineIndex;
use super::protocol::{self, Diagnostic, Location, Position, RelatedInformation, Uri};
use crate::settings::Settings;

/// What the diagnostics say they come from.
pub(crate) const SOURCE: &str = "redis-lua";

/// One diagnostic published on a document, with what it was made from.
#[derive(Debug, Clone)]
pub(crate) struct Published {
    /// As the client received it.
    pub(crate) diagnostic: Diagnostic,
    /// The finding (`None` for a config file that cannot be read).
    pub(crate) finding: Option<Finding>,
    /// Where it is in the document's text, in bytes.
    pub(crate) span: Range<usize>,
    /// Whether the finding is in the document's own text (not in a file it
    /// includes, whose findings are shown on the `--- @include` line).
    pub(crate) in_document: bool,
}

/// What checking a document found.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// Its diagnostics.
    pub(crate) published: Vec<Published>,
    /// The other files its check read, made plain ([`compose::normalize`]):
    /// those its includes bring in; for a fragment, the scripts that include
    /// it and theirs. An edit of one checks the document again.
    pub(crate) included: Vec<PathBuf>,
    /// The servers it is checked for (every server when the config cannot
    /// be read): those hover and completion speak of.
    pub(crate) servers: Servers,
}

/// Checks `document` (at `uri`), reading included files through
/// `documents`; paths are relative to the first of `roots` (the
/// workspace's folders) the file is in. A fragment is checked where it is
/// included (see the module's documentation).
pub(crate) fn check(
    document: &Document,
    uri: &Uri,
    documents: &Documents,
    roots: &[PathBuf],
    includes: &IncludeIndex,
) -> Checked {
    if let Some(path) = &document.path {
        let scripts = includes.scripts_including(path);
        if !scripts.is_empty() {
            return check_where_included(document, path, &scripts, documents, roots);
        }
    }
    check_alone(document, uri, documents, roots)
}

/// The fragment `document` (at `path`) checked in each of `scripts`: the
/// findings in its text, once each, with the line that includes it as
/// related information.
fn check_where_included(
    document: &Document,
    path: &Path,
    scripts: &[PathBuf],
    documents: &Documents,
    roots: &[PathBuf],
) -> Checked {
    let path = compose::normalize(path);
    let mut published: Vec<Published> = Vec::new();
    let mut servers = Servers::ALL;
    // What the findings depend on: the scripts, and what each includes, so
    // that an edit of any of them checks the fragment again.
    let mut read: Vec<PathBuf> = Vec::new();
    for script in scripts {
        let Ok(source) = documents.read(script) else {
            continue;
        };
        let Ok(run) = run_check(script, source, documents, roots) else {
            continue;
        };
        let Some(report) = run.report else {
            continue;
        };
        servers = run.servers;
        read.push(compose::normalize(script));
        read.extend(
            report
                .included
                .iter()
                .map(|file| compose::normalize(&run.base.join(file))),
        );
        for finding in &report.findings {
            let file = report.file(finding);
            if compose::normalize(&run.base.join(&file.path)) != path {
                continue;
            }
            let span = finding.span.start..finding.span.end.max(finding.span.start);
            if published.iter().any(|known| {
                known.span == span
                    && known.finding.as_ref().is_some_and(|known| {
                        known.rule == finding.rule && known.message == finding.message
                    })
            }) {
                continue;
            }
            let range = document.lines.range(&document.text, span.start, span.end);
            let includer = &report.files[0];
            let related = report
                .files
                .include_chain(finding.file)
                .last()
                .map(|(_, directive)| {
                    let text = String::from_utf8_lossy(&includer.source);
                    let range = LineIndex::new(&text).range(&text, directive.start, directive.end);
                    RelatedInformation {
                        location: Location {
                            uri: documents.uri_at(script),
                            range,
                        },
                        message: format!("included from {}", includer.display),
                    }
                });
            published.push(Published {
                diagnostic: diagnostic(finding, range, message(finding), related),
                finding: Some(finding.clone()),
                span,
                in_document: true,
            });
        }
    }
    read.retain(|file| *file != path);
    Checked {
        published,
        included: read,
        servers,
    }
}

/// A file checked as `redis-lua check` checks it: its config's settings,
/// the folder of the workspace it is in.
struct Run {
    /// `None` for a file the config excludes.
    report: Option<lint::FileReport>,
    servers: Servers,
    /// The folder its paths are relative to.
    base: PathBuf,
}

/// Checks the file at `path`, whose text is `source`; the config's
/// error when it cannot be read.
fn run_check(
    path: &Path,
    source: impl Into<Vec<u8>>,
    documents: &Documents,
    roots: &[PathBuf],
) -> Result<Run, String> {
    let folder = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let settings = Settings::from_nearest_config(folder)?;
    let servers = settings.servers_for(path);
    // In a workspace folder, the file is checked by its path from there, as
    // `redis-lua check` run there names it (in messages, and in the paths of
    // includes); the folder is where relative paths are read from.
    let (base, relative) = match roots.iter().find(|root| path.starts_with(root)) {
        Some(root) => (root.as_path(), path.strip_prefix(root).unwrap_or(path)),
        None => (Path::new("/"), path),
    };
    let report = settings.file_options(path).map(|options| {
        let display = relative.to_string_lossy().into_owned();
        let mut read = |file: &Path| documents.read(&base.join(file));
        lint::check_file(&display, relative, source, &mut read, &options)
    });
    Ok(Run {
        report,
        servers,
        base: base.to_path_buf(),
    })
}

/// Checks `document` on its own.
fn check_alone(
    document: &Document,
    uri: &Uri,
    documents: &Documents,
    roots: &[PathBuf],
) -> Checked {
    let path = document.path.clone().unwrap_or_else(|| unsaved_path(uri));
    let run = match run_check(&path, document.text.clone(), documents, roots) {
        Ok(run) => run,
        Err(message) => return config_error(message),
    };
    let (servers, base) = (run.servers, run.base);
    let Some(report) = run.report else {
        return Checked {
            servers,
            ..Checked::default()
        };
    };
    let published = report
        .findings
        .iter()
        .map(|finding| {
            if finding.file == 0 {
                let span = finding.span.start..finding.span.end.max(finding.span.start);
                let range = document.lines.range(&document.text, span.start, span.end);
                let diagnostic = diagnostic(finding, range, message(finding), None);
                return Published {
                    diagnostic,
                    finding: Some(finding.clone()),
                    span,
                    in_document: true,
                };
            }
            // On the document's own directive that brings the file in.
            let span = report
                .files
                .include_chain(finding.file)
                .last()
                .map_or(0..0, |(_, directive)| directive.start..directive.end);
            let range = document.lines.range(&document.text, span.start, span.end);
            let file = report.file(finding);
            let ((line, column), _) = report.line_column(finding);
            let message = format!("{}:{line}:{column}: {}", file.display, message(finding));
            let included = compose::normalize(&base.join(&file.path));
            let related = related(finding, &file.source, &included, documents);
            Published {
                diagnostic: diagnostic(finding, range, message, related),
                finding: Some(finding.clone()),
                span,
                in_document: false,
            }
        })
        .collect();
    Checked {
        published,
        included: report
            .included
            .iter()
            .map(|file| compose::normalize(&base.join(file)))
            .collect(),
        servers,
    }
}

impl Default for Checked {
    fn default() -> Checked {
        Checked {
            published: Vec::new(),
            included: Vec::new(),
            servers: Servers::ALL,
        }
    }
}

/// The message, and the note under it.
fn message(finding: &Finding) -> String {
    match &finding.note {
        Some(note) => format!("{}\nnote: {note}", finding.message),
        None => finding.message.clone(),
    }
}

fn diagnostic(
    finding: &Finding,
    range: protocol::Range,
    message: String,
    related: Option<RelatedInformation>,
) -> Diagnostic {
    Diagnostic {
        range,
        severity: match finding.severity {
            Severity::Error => protocol::ERROR,
            _ => protocol::WARNING,
        },
        code: Some(finding.rule.name().to_owned()),
        source: SOURCE,
        message,
        related_information: related.into_iter().collect(),
    }
}

/// A config file that cannot be read: shown on the document's first line,
/// and nothing checked, as the command line stops on it.
fn config_error(message: String) -> Checked {
    let start = Position::new(0, 0);
    Checked {
        published: vec![Published {
            diagnostic: Diagnostic {
                range: protocol::Range::new(start, start),
                severity: protocol::ERROR,
                code: None,
                source: SOURCE,
                message,
                related_information: Vec::new(),
            },
            finding: None,
            span: 0..0,
            in_document: true,
        }],
        ..Checked::default()
    }
}

/// The path a document without one is checked as: its URI's last segment
/// (`Untitled-1`), in no folder, so no config applies and includes are
/// read from the current folder.
fn unsaved_path(uri: &Uri) -> PathBuf {
    let text = uri.as_str();
    PathBuf::from(text.rsplit(['/', ':']).next().unwrap_or(text))
}

/// Where a finding in an included file is, in that file's text as the
/// check read it (`source`: the open document's, or the file's on disk),
/// the file at `included`.
fn related(
    finding: &Finding,
    source: &[u8],
    included: &Path,
    documents: &Documents,
) -> Option<RelatedInformation> {
    let uri = documents.uri_at(included);
    let text = String::from_utf8_lossy(source);
    let (start, end) = (finding.span.start, finding.span.end.max(finding.span.start));
    let range = LineIndex::new(&text).range(&text, start, end);
    Some(RelatedInformation {
        location: Location { uri, range },
        message: finding.message.clone(),
    })
}
