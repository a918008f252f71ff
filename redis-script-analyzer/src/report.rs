//! Renders a finding in the Lua file the way rustc renders its own:
//! the message, `--> file:line:col`, the line, and a caret under the span.

use crate::syntax::tree::Span;

/// 1-based line and column (in characters) of byte `offset`, and the line's text.
pub fn locate(source: &str, offset: usize) -> (usize, usize, &str) {
    let offset = offset.min(source.len());
    let line_start = source[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_number = source[..line_start].matches('\n').count() + 1;
    line_at(source, offset, line_start, line_number)
}

/// The line and column of `offset` on the line `line_number` that starts
/// at `line_start`, and the line's text.
fn line_at(
    source: &str,
    offset: usize,
    line_start: usize,
    line_number: usize,
) -> (usize, usize, &str) {
    let line_end = source[line_start..]
        .find('\n')
        .map_or(source.len(), |at| line_start + at);
    let column = source[line_start..offset].chars().count() + 1;
    let text = source[line_start..line_end].trim_end_matches('\r');
    (line_number, column, text)
}

/// Where each line of a text starts: [`locate`] by a binary search, for a
/// caller that places many findings in one text (a search of the text
/// for each would take time in the number of findings times its length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `source`.
    pub fn new(source: &str) -> Lines {
        let breaks = source.match_indices('\n').map(|(at, _)| at + 1);
        Lines {
            starts: std::iter::once(0).chain(breaks).collect(),
        }
    }

    /// As [`locate`], in `source`, the text these are the lines of.
    pub fn locate<'s>(&self, source: &'s str, offset: usize) -> (usize, usize, &'s str) {
        let offset = offset.min(source.len());
        let line = self.starts.partition_point(|&start| start <= offset).max(1);
        line_at(source, offset, self.starts[line - 1], line)
    }

    /// As [`render`], in `source`, the text these are the lines of.
    pub fn render(
        &self,
        file: &str,
        source: &str,
        span: Span,
        message: &str,
        note: Option<&str>,
    ) -> String {
        render_at(
            self.locate(source, span.start),
            file,
            source,
            span,
            message,
            note,
        )
    }
}

/// `message`, then where in `file` it is, the line and a caret; then the note.
/// A line longer than [`SHOWN_CHARS`] is shown in part, around the
/// finding, between `...`s (a generated script may be one long line).
pub fn render(file: &str, source: &str, span: Span, message: &str, note: Option<&str>) -> String {
    render_at(
        locate(source, span.start),
        file,
        source,
        span,
        message,
        note,
    )
}

/// [`render`], with where `span` starts already located.
fn render_at(
    (line, column, text): (usize, usize, &str),
    file: &str,
    source: &str,
    span: Span,
    message: &str,
    note: Option<&str>,
) -> String {
    let width = source
        .get(span.start..span.end.max(span.start))
        .map_or(1, |covered| {
            covered.split('\n').next().unwrap_or("").chars().count()
        })
        .max(1);
    let (text, at, width) = window(text, column - 1, width);
    let gutter = " ".repeat(line.to_string().len());
    let mut out = format!(
        "{message}\n{gutter}--> {file}:{line}:{column}\n{gutter} |\n{line} | {text}\n{gutter} | {}{}",
        " ".repeat(at),
        "^".repeat(width)
    );
    if let Some(note) = note {
        out.push_str(&format!("\n{gutter} = note: {note}"));
    }
    out
}

/// The most characters of a line [`render`] shows.
pub const SHOWN_CHARS: usize = 120;

/// `text`, or the part of it around the `width` characters from character
/// `at` if it is longer than [`SHOWN_CHARS`]; with where the finding starts
/// in what is shown, and how much of it is shown.
fn window(text: &str, at: usize, width: usize) -> (String, usize, usize) {
    let len = text.chars().count();
    if len <= SHOWN_CHARS {
        return (text.to_owned(), at, width);
    }
    let start = at.saturating_sub(SHOWN_CHARS / 4).min(len - SHOWN_CHARS);
    let end = start + SHOWN_CHARS;
    let (before, after) = (
        if start > 0 { "..." } else { "" },
        if end < len { "..." } else { "" },
    );
    let shown: String = text.chars().skip(start).take(SHOWN_CHARS).collect();
    let at_shown = at - start;
    let width = width.min(SHOWN_CHARS - at_shown).max(1);
    (
        format!("{before}{shown}{after}"),
        before.len() + at_shown,
        width,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_line_and_column() {
        let source = "local a = 1\nlocal b = keys[1]\n";
        let start = source.find("keys").unwrap();
        let span = Span::new(start, start + 4);
        assert_eq!(locate(source, start), (2, 11, "local b = keys[1]"));
        let rendered = render(
            "x.lua",
            source,
            span,
            "unknown",
            Some("did you mean `KEYS`?"),
        );
        assert_eq!(
            rendered,
            "unknown\n --> x.lua:2:11\n  |\n2 | local b = keys[1]\n  |           ^^^^\n  = note: did you mean `KEYS`?"
        );
    }

    #[test]
    fn lines_locate_as_a_search_of_the_text_does() {
        for source in ["", "a", "\n", "ab\ncd\r\n\nxé\n", "one\ntwo"] {
            let lines = Lines::new(source);
            for offset in (0..=source.len() + 2)
                .filter(|&at| at >= source.len() || source.is_char_boundary(at))
            {
                assert_eq!(
                    lines.locate(source, offset),
                    locate(source, offset),
                    "{source:?} at {offset}"
                );
            }
            let span = Span::new(0, source.len().min(1));
            assert_eq!(
                lines.render("x.lua", source, span, "m", Some("n")),
                render("x.lua", source, span, "m", Some("n"))
            );
        }
    }

    #[test]
    fn a_long_line_is_shown_around_the_finding() {
        let long = format!("return {}keys[1]{}", "a + ".repeat(100), " + a".repeat(100));
        let start = long.find("keys").unwrap();
        let rendered = render("x.lua", &long, Span::new(start, start + 4), "unknown", None);
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(lines[1], " --> x.lua:1:408");
        let shown = lines[3].strip_prefix("1 | ").unwrap();
        assert!(
            shown.starts_with("...") && shown.ends_with("..."),
            "{shown}"
        );
        assert_eq!(shown.len(), SHOWN_CHARS + 6);
        let caret = lines[4].strip_prefix("  | ").unwrap();
        assert_eq!(&shown[caret.find('^').unwrap()..][..4], "keys");
        assert_eq!(caret.trim(), "^^^^");
        // A finding near the end shows the line's end, without a trailing `...`.
        let end = long.len() - 1;
        let rendered = render("x.lua", &long, Span::new(end, end + 1), "x", None);
        assert!(
            !rendered.lines().nth(3).unwrap().ends_with("..."),
            "{rendered}"
        );
    }
}
