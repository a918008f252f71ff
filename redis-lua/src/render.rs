//! A finding as people read it, drawn by `annotate-snippets`: `error[rule]:
//! message`, `--> file:line:col`, the line and carets under the finding,
//! tabs and wide characters lined up (a tab shown as four spaces); then its
//! note and the includes that brought its file in. This is the text
//! `#[redis_script]` shows (the analyzer's `rendered`, which draws by the
//! same rules with a small table of wide characters of its own), but on a
//! line longer than 120 characters, which each shortens in its own way.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Style};
use redis_script_analyzer::Severity;
use redis_script_analyzer::fix::{Applicability, FileFix};
use redis_script_analyzer::lint::Finding;
use redis_script_analyzer::report::Lines;

/// The `=` before a note, in the colour annotate-snippets gives the gutter.
const GUTTER: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::BrightBlue)));
/// The word `note`.
const NOTE: Style = Style::new().bold();

/// `finding`, whose first line reads `line` (`None` when its file could
/// not be read again: the analyzer's rendering is shown instead), with
/// colours when `colored`.
pub fn finding(finding: &Finding, line: Option<&str>, colored: bool) -> String {
    let Some(line) = line else {
        let header = format!("{}[{}]", finding.severity.name(), finding.rule);
        let header = if colored {
            let style = severity_style(finding.severity);
            format!("{style}{header}{style:#}")
        } else {
            header
        };
        let mut rendered = finding.rendered.clone();
        if let Some(fix) = certain_fix(finding) {
            // After the note, before the includes that brought the file in.
            let gutter = " ".repeat(finding.line.to_string().len());
            let at = rendered
                .find(&format!("\n{gutter} = included from "))
                .unwrap_or(rendered.len());
            rendered.insert_str(at, &format!("\n{gutter} = {}", fix_line(fix)));
        }
        return format!("{header}: {rendered}");
    };
    let level = match finding.severity {
        Severity::Warning => Level::WARNING,
        _ => Level::ERROR,
    };
    let snippet = Snippet::source(line)
        .line_start(finding.line)
        .path(finding.file.as_str())
        .annotation(AnnotationKind::Primary.span(span_on_line(finding, line)));
    let report = [Group::with_title(
        level
            .primary_title(finding.message.as_str())
            .id(finding.rule.name()),
    )
    .element(snippet)];
    let renderer = if colored {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = renderer.render(&report);
    // Under the quoted line, as the analyzer writes them (annotate-snippets
    // would add an empty gutter line before them).
    let gutter = " ".repeat(finding.line.to_string().len());
    let (equals, note) = if colored {
        (
            format!("{GUTTER}={GUTTER:#}"),
            format!("{NOTE}note{NOTE:#}"),
        )
    } else {
        ("=".to_owned(), "note".to_owned())
    };
    if let Some(text) = &finding.note {
        out.push_str(&format!("\n{gutter} {equals} {note}: {text}"));
    }
    if let Some(fix) = certain_fix(finding) {
        out.push_str(&format!("\n{gutter} {equals} {}", fix_line(fix)));
    }
    for (includer, at) in &finding.included_from {
        out.push_str(&format!(
            "\n{gutter} {equals} included from {includer}:{at}"
        ));
    }
    out
}

/// The finding's certain fix, the one `--fix` applies.
pub fn certain_fix(finding: &Finding) -> Option<&FileFix> {
    finding
        .fixes
        .iter()
        .find(|fix| fix.applicability == Applicability::Certain)
}

/// `fix: <what it does> (`--fix` applies it)`, under a finding.
fn fix_line(fix: &FileFix) -> String {
    format!("fix: {} (`--fix` applies it)", fix.title)
}

/// The style annotate-snippets gives the headline of a finding of `severity`.
fn severity_style(severity: Severity) -> Style {
    let color = match severity {
        Severity::Warning => AnsiColor::BrightYellow,
        _ => AnsiColor::BrightRed,
    };
    Style::new()
        .bold()
        .fg_color(Some(anstyle::Color::Ansi(color)))
}

/// The bytes of `line` (the finding's first line) the finding covers: from
/// its column to its end column, or to the line's end when it goes on.
fn span_on_line(finding: &Finding, line: &str) -> Range<usize> {
    let byte = |column: usize| {
        line.char_indices()
            .nth(column.saturating_sub(1))
            .map_or(line.len(), |(at, _)| at)
    };
    let start = byte(finding.column);
    let end = if finding.end_line == finding.line {
        byte(finding.end_column).max(start)
    } else {
        line.len()
    };
    start..end
}

/// The files findings are in, read again (once each) to quote their lines.
#[derive(Debug, Default)]
pub struct Sources {
    files: HashMap<PathBuf, Option<(Vec<u8>, Lines)>>,
}

impl Sources {
    /// Line `number` of the file at `path`, as the analyzer shows a line
    /// (`None` if the file cannot be read, or is shorter now).
    pub fn line(&mut self, path: &Path, number: usize) -> Option<String> {
        let file = self.files.entry(path.to_path_buf()).or_insert_with(|| {
            let source = std::fs::read(path).ok()?;
            let lines = Lines::new(&source);
            Some((source, lines))
        });
        let (source, lines) = file.as_ref()?;
        lines.text(source, number).map(|text| text.into_owned())
    }
}
