//! Renders a finding in the Lua file the way rustc renders its own:
//! the message, `--> file:line:col`, the line, and a caret under the span.
//! [`Snippet`] is the one renderer: `#[redis_script]`'s compile errors use
//! its [`Style::Macro`], `redis-lua` its [`Style::Terminal`].
//!
//! Lines are counted as Lua counts them, so as the server's `user_script:LINE:`
//! does: `\n`, `\r`, `\r\n` and `\n\r` each end one line. A source that is
//! not UTF-8 is shown lossily: an invalid sequence is one U+FFFD character.
//!
//! The caret is placed by the width each character takes on a terminal: a
//! tab is shown as four spaces, and a wide character (CJK, most emoji)
//! takes two columns. A small table of the wide ranges stands in for the
//! Unicode width tables, which the macro does not pull in for this.

use std::borrow::Cow;

use crate::rule::{Rule, Severity};
use crate::syntax::tree::Span;
use crate::text;

/// 1-based line and column (in characters of the line as shown) of byte
/// `offset`, and the line's text (without its line ending; invalid UTF-8
/// shown as U+FFFD).
pub fn locate<S: AsRef<[u8]> + ?Sized>(source: &S, offset: usize) -> (usize, usize, Cow<'_, str>) {
    let source = source.as_ref();
    let offset = offset.min(source.len());
    let mut line_number = 1;
    let mut line_start = 0;
    for line in text::lines(source) {
        // The line holds the offset (its ending included), or is the last.
        if line.next > offset || line.next == line.end {
            break;
        }
        line_number += 1;
        line_start = line.next;
    }
    line_at(source, offset, line_start, line_number)
}

/// The line and column of `offset` on the line `line_number` that starts
/// at `line_start`, and the line's text (lossy, without its line ending).
fn line_at(
    source: &[u8],
    offset: usize,
    line_start: usize,
    line_number: usize,
) -> (usize, usize, Cow<'_, str>) {
    let line_end = text::line_end(source, line_start);
    let before = &source[line_start..offset.min(line_end)];
    let column = String::from_utf8_lossy(before).chars().count() + 1;
    let text = String::from_utf8_lossy(&source[line_start..line_end]);
    (line_number, column, text)
}

/// Where each line of a source starts, as Lua counts lines: [`locate`] by
/// a binary search, for a caller that places many findings in one source
/// (a search of the source for each would take time in the number of
/// findings times its length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `source`: one starts at 0, and one after each line
    /// ending (`\n`, `\r`, `\r\n` or `\n\r`, each one ending).
    pub fn new<S: AsRef<[u8]> + ?Sized>(source: &S) -> Lines {
        let breaks = text::lines(source.as_ref())
            .filter(|line| line.next != line.end)
            .map(|line| line.next);
        Lines {
            starts: std::iter::once(0).chain(breaks).collect(),
        }
    }

    /// As [`locate`], in `source`, the source these are the lines of.
    pub fn locate<'s, S: AsRef<[u8]> + ?Sized>(
        &self,
        source: &'s S,
        offset: usize,
    ) -> (usize, usize, Cow<'s, str>) {
        let source = source.as_ref();
        let offset = offset.min(source.len());
        let line = self.line_of(offset);
        line_at(source, offset, self.starts[line - 1], line)
    }

    /// The 1-based line that holds byte `offset` (its ending included), as
    /// [`Lines::locate`] gives it, without counting its columns.
    pub fn line_of(&self, offset: usize) -> usize {
        // The line holds the offset when the next line starts after it.
        self.starts.partition_point(|&start| start <= offset).max(1)
    }

    /// The byte where line `line` (1-based, as [`Lines::locate`] gives
    /// it) starts; the last line's start for a line past the end.
    pub fn start_of(&self, line: usize) -> usize {
        self.starts[line.clamp(1, self.starts.len()) - 1]
    }

    /// How many lines there are (one, in an empty source).
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The text of line `number` (1-based) of `source`, the source these
    /// are the lines of, as [`locate`] gives a line's text; `None` past its
    /// last line.
    pub fn text<'s, S: AsRef<[u8]> + ?Sized>(
        &self,
        source: &'s S,
        number: usize,
    ) -> Option<Cow<'s, str>> {
        let source = source.as_ref();
        let start = (*self.starts.get(number.checked_sub(1)?)?).min(source.len());
        Some(String::from_utf8_lossy(
            &source[start..text::line_end(source, start)],
        ))
    }

    /// As [`render`], in `source`, the source these are the lines of.
    pub fn render<S: AsRef<[u8]> + ?Sized>(
        &self,
        file: &str,
        source: &S,
        span: Span,
        message: &str,
        note: Option<&str>,
    ) -> String {
        Snippet::new(file, source.as_ref(), span, message)
            .lines(self)
            .note(note)
            .render(Style::Macro)
    }
}

/// `message`, then where in `file` it is, the line and a caret; then the note.
/// A line longer than [`SHOWN_CHARS`] is shown in part, around the
/// finding, between `...`s (a generated script may be one long line).
pub fn render<S: AsRef<[u8]> + ?Sized>(
    file: &str,
    source: &S,
    span: Span,
    message: &str,
    note: Option<&str>,
) -> String {
    Snippet::new(file, source.as_ref(), span, message)
        .note(note)
        .render(Style::Macro)
}

/// How a [`Snippet`] is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Style {
    /// As `#[redis_script]` shows a finding in a compile error: the message
    /// first (the compiler heads it with `error:`).
    Macro,
    /// As a command line shows it: headed `error[rule]:` or
    /// `warning[rule]:`, in colour when `colored` (ANSI escapes, as
    /// rustc colours its own).
    Terminal {
        /// Whether to colour it.
        colored: bool,
    },
}

/// A finding drawn as rustc draws its own: the one renderer of every
/// finding, in a compile error and on a terminal. Built with
/// [`Snippet::new`] and the setters, drawn by [`Snippet::render`]:
///
/// ```text
/// error[unknown_commands]: `gett` is not a Redis command, ...
///  --> scripts/lib/get.lua:2:21
///   |
/// 2 |   return redis.call('GETT', key)
///   |                     ^^^^^^
///   = note: did you mean `get`?
///   = fix: replace `GETT` with `GET` (`--fix` applies it)
///   = included from scripts/read.lua:1
/// ```
#[derive(Debug, Clone)]
pub struct Snippet<'a> {
    file: &'a str,
    source: &'a [u8],
    lines: Option<&'a Lines>,
    span: Span,
    message: &'a str,
    headline: Option<(Severity, Rule)>,
    note: Option<&'a str>,
    asides: Vec<String>,
    included_from: Vec<(&'a str, usize)>,
}

impl<'a> Snippet<'a> {
    /// `message` about `span` of `source`, the text of `file` (as shown).
    pub fn new(file: &'a str, source: &'a [u8], span: Span, message: &'a str) -> Snippet<'a> {
        Snippet {
            file,
            source,
            lines: None,
            span,
            message,
            headline: None,
            note: None,
            asides: Vec::new(),
            included_from: Vec::new(),
        }
    }

    /// The lines of `source`, when the caller has them: the line is then
    /// found by a binary search, not a scan of the text.
    #[must_use]
    pub fn lines(mut self, lines: &'a Lines) -> Snippet<'a> {
        self.lines = Some(lines);
        self
    }

    /// Its severity and rule: the headline [`Style::Terminal`] writes.
    #[must_use]
    pub fn headline(mut self, severity: Severity, rule: Rule) -> Snippet<'a> {
        self.headline = Some((severity, rule));
        self
    }

    /// How to fix it, written `= note: ...` under the line.
    #[must_use]
    pub fn note(mut self, note: Option<&'a str>) -> Snippet<'a> {
        self.note = note;
        self
    }

    /// One more line under the note, written `= {text}`.
    #[must_use]
    pub fn aside(mut self, text: String) -> Snippet<'a> {
        self.asides.push(text);
        self
    }

    /// The includes that brought the file in, nearest first: each
    /// including file and the line of its directive, written last.
    #[must_use]
    pub fn included_from(mut self, chain: Vec<(&'a str, usize)>) -> Snippet<'a> {
        self.included_from = chain;
        self
    }

    /// The finding drawn in `style`. A line longer than [`SHOWN_CHARS`]
    /// is shown in part, around the finding, between `...`s.
    pub fn render(&self, style: Style) -> String {
        let paint = Paint::new(style, self.headline.map(|(severity, _)| severity));
        let (line, column, text) = match self.lines {
            Some(lines) => lines.locate(self.source, self.span.start),
            None => locate(self.source, self.span.start),
        };
        let span = self.span;
        let width = self
            .source
            .get(span.start..span.end.max(span.start))
            .map_or(1, |covered| {
                let first_line = &covered[..text::line_end(covered, 0)];
                String::from_utf8_lossy(first_line).chars().count()
            })
            .max(1);
        let (text, at, width) = window(&text, column - 1, width);
        // In columns of the line as shown, tabs expanded.
        let before: usize = text.chars().take(at).map(columns).sum();
        let under: usize = text.chars().skip(at).take(width).map(columns).sum();
        let text = text.replace('\t', TAB);
        let gutter = " ".repeat(line.to_string().len());
        let mut out = String::new();
        if let (Style::Terminal { .. }, Some((severity, rule))) = (style, self.headline) {
            let headline = format!("{}[{}]", severity.name(), rule.name());
            out.push_str(&format!(
                "{}{}",
                paint.severity(&headline),
                paint.bold(&format!(": {}", self.message))
            ));
        } else {
            out.push_str(self.message);
        }
        let bar = paint.gutter("|");
        out.push_str(&format!(
            "\n{gutter}{}{file}:{line}:{column}\n{gutter} {bar}\n{} {bar} {text}\n{gutter} {bar} {}{}",
            paint.gutter("--> "),
            paint.gutter(&line.to_string()),
            " ".repeat(before),
            paint.severity(&"^".repeat(under.max(1))),
            file = self.file,
        ));
        let equals = paint.gutter("=");
        if let Some(note) = self.note {
            out.push_str(&format!(
                "\n{gutter} {equals} {}: {note}",
                paint.bold("note")
            ));
        }
        for aside in &self.asides {
            out.push_str(&format!("\n{gutter} {equals} {aside}"));
        }
        for (includer, at) in &self.included_from {
            out.push_str(&format!(
                "\n{gutter} {equals} included from {includer}:{at}"
            ));
        }
        out
    }
}

/// What a tab of the quoted line is shown as (as rustc shows one).
const TAB: &str = "    ";

/// The columns `c` takes on a terminal: a tab as [`TAB`], a wide character
/// two, a combining mark or a zero-width one none, any other one.
fn columns(c: char) -> usize {
    match c {
        '\t' => TAB.len(),
        '\u{300}'..='\u{36f}' | '\u{200b}'..='\u{200f}' | '\u{fe00}'..='\u{fe0f}' => 0,
        '\u{1100}'..='\u{115f}'
        | '\u{2e80}'..='\u{303e}'
        | '\u{3041}'..='\u{33ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{a000}'..='\u{a4cf}'
        | '\u{ac00}'..='\u{d7a3}'
        | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}'
        | '\u{ff00}'..='\u{ff60}'
        | '\u{ffe0}'..='\u{ffe6}'
        | '\u{1f300}'..='\u{1f64f}'
        | '\u{1f900}'..='\u{1f9ff}'
        | '\u{20000}'..='\u{3fffd}' => 2,
        _ => 1,
    }
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

/// The colours of [`Style::Terminal`] when coloured: ANSI escapes, bold
/// and bright, as rustc paints its own diagnostics.
struct Paint {
    colored: bool,
    /// The severity's colour: the headline and the carets.
    accent: &'static str,
}

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";
const BRIGHT_RED: &str = "\x1b[91m";
const BRIGHT_YELLOW: &str = "\x1b[93m";
const BRIGHT_BLUE: &str = "\x1b[94m";

impl Paint {
    fn new(style: Style, severity: Option<Severity>) -> Paint {
        Paint {
            colored: matches!(style, Style::Terminal { colored: true }),
            accent: match severity {
                Some(Severity::Warning) => BRIGHT_YELLOW,
                _ => BRIGHT_RED,
            },
        }
    }

    fn paint(&self, color: &str, text: &str) -> String {
        if self.colored {
            format!("{BOLD}{color}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    fn severity(&self, text: &str) -> String {
        self.paint(self.accent, text)
    }

    fn gutter(&self, text: &str) -> String {
        self.paint(BRIGHT_BLUE, text)
    }

    fn bold(&self, text: &str) -> String {
        self.paint("", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_line_and_column() {
        let source = "local a = 1\nlocal b = keys[1]\n";
        let start = source.find("keys").unwrap();
        let span = Span::new(start, start + 4);
        assert_eq!(
            locate(source, start),
            (2, 11, Cow::Borrowed("local b = keys[1]"))
        );
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
    fn the_terminal_heads_the_macros_drawing_and_colours_only_when_asked() {
        let source = "local v = 1\nreturn redis.call('GETT', v)\n";
        let start = source.find("'GETT'").unwrap();
        let snippet = Snippet::new("x.lua", source.as_bytes(), Span::new(start, start + 6), "m")
            .headline(Severity::Warning, Rule::UnknownCommands)
            .note(Some("n"))
            .aside("fix: f".to_owned())
            .included_from(vec![("main.lua", 3)]);
        let body = "m\n --> x.lua:2:19\n  |\n2 | return redis.call('GETT', v)\n  |                   \
                    ^^^^^^\n  = note: n\n  = fix: f\n  = included from main.lua:3";
        assert_eq!(snippet.render(Style::Macro), body);
        let plain = snippet.render(Style::Terminal { colored: false });
        assert_eq!(plain, format!("warning[unknown_commands]: {body}"));
        let colored = snippet.render(Style::Terminal { colored: true });
        assert!(
            colored
                .starts_with("\x1b[1m\x1b[93mwarning[unknown_commands]\x1b[0m\x1b[1m: m\x1b[0m\n"),
            "{colored:?}"
        );
        assert!(
            colored.contains("\x1b[1m\x1b[93m^^^^^^\x1b[0m"),
            "{colored:?}"
        );
        // Without its escapes, the coloured drawing is the plain one.
        let mut stripped = String::new();
        let mut rest = colored.as_str();
        while let Some(at) = rest.find('\x1b') {
            stripped.push_str(&rest[..at]);
            rest = &rest[at + rest[at..].find('m').unwrap() + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, plain);
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
    fn lines_locate_as_locate_does_for_every_line_ending_and_invalid_utf8() {
        let sources: [&[u8]; 12] = [
            b"",
            b"\n",
            b"\r",
            b"\r\n",
            b"\n\r",
            b"a\r\rb\n\nc",
            b"a\r\n\rb\n\r\nc\r",
            b"x = 1\nlocal s = '\xff\xfe' .. keys\n",
            b"\xff\r\xc3\xa9\n\r\xe2\x82\r\nend",
            b"one\rtwo\r\nthree\n\rfour\nfive",
            b"-- \xc3\n\xa9 \x80\x80\r\r\n\n\r\r",
            b"\xf0\x9f\x98\x80 keys\r\n\xf0\x9f\x98",
        ];
        for source in sources {
            let lines = Lines::new(source);
            for offset in 0..=source.len() + 2 {
                assert_eq!(
                    lines.locate(source, offset),
                    locate(source, offset),
                    "{source:?} at {offset}"
                );
                for width in [0, 1, 3, source.len()] {
                    let span = Span::new(offset, offset + width);
                    assert_eq!(
                        lines.render("x.lua", source, span, "m", Some("n")),
                        render("x.lua", source, span, "m", Some("n")),
                        "{source:?} at {offset}, {width} wide"
                    );
                }
            }
        }
        // The lines as Lua counts them: one after each ending of any kind.
        let lines = Lines::new(b"one\rtwo\r\nthree\n\rfour\nfive");
        assert_eq!(lines.starts, [0, 4, 9, 16, 21]);
        assert_eq!(Lines::new(b"a\n").starts, [0, 2]);
        assert_eq!(Lines::new(b"").starts, [0]);
    }

    #[test]
    fn lines_end_as_lua_ends_them() {
        for ending in ["\n", "\r\n", "\r", "\n\r"] {
            let source = ["a = 1", "b = 2", "c = keys"].join(ending) + ending;
            let start = source.find("keys").unwrap();
            let (line, column, text) = locate(&source, start);
            assert_eq!((line, column, &*text), (3, 5, "c = keys"), "{ending:?}");
            // Past the last line ending: a line of its own.
            assert_eq!(locate(&source, source.len()).0, 4, "{ending:?}");
            let lines = Lines::new(&source);
            assert_eq!(Some(lines.start_of(3)), source.find("c ="), "{ending:?}");
            assert_eq!(lines.start_of(4), source.len(), "{ending:?}");
            assert_eq!(lines.count(), 4, "{ending:?}");
            let rendered = render("x.lua", &source, Span::new(start, start + 4), "m", None);
            assert!(
                rendered.contains(" --> x.lua:3:5\n"),
                "{ending:?}: {rendered}"
            );
            assert!(
                rendered.contains("3 | c = keys\n"),
                "{ending:?}: {rendered}"
            );
        }
        // Two of the same line ending are two lines.
        assert_eq!(locate("a\r\rb", 3).0, 3);
        assert_eq!(locate("a\n\nb", 3).0, 3);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_shown_lossily() {
        let source = b"x = 1\nlocal s = '\xff\xfe' .. keys\n";
        let start = source.windows(4).position(|w| w == b"keys").unwrap();
        let (line, column, text) = locate(&source[..], start);
        // One U+FFFD per invalid byte here, as `from_utf8_lossy` shows them.
        assert_eq!(
            (line, column, &*text),
            (2, 19, "local s = '\u{fffd}\u{fffd}' .. keys")
        );
        let rendered = render("x.lua", &source[..], Span::new(start, start + 4), "m", None);
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(lines[3], "2 | local s = '\u{fffd}\u{fffd}' .. keys");
        assert_eq!(lines[4], format!("  | {}^^^^", " ".repeat(18)));
    }

    /// The caret line of `render` at the first `target` of `line`.
    fn caret_under(line: &str, target: &str) -> (String, String) {
        let start = line.find(target).unwrap();
        let rendered = render(
            "x.lua",
            line,
            Span::new(start, start + target.len()),
            "m",
            None,
        );
        let lines: Vec<&str> = rendered.lines().collect();
        (lines[3].to_owned(), lines[4].to_owned())
    }

    #[test]
    fn tabs_are_shown_as_spaces_and_the_caret_counts_them() {
        let (text, caret) = caret_under("\t\tx = keys\t-- \tkeys", "keys");
        assert_eq!(text, "1 |         x = keys    --     keys");
        assert_eq!(caret, "  |             ^^^^");
        let (_, caret) = caret_under("\tx = '\t' .. keys", "'\t'");
        assert_eq!(caret, "  |         ^^^^^^");
    }

    #[test]
    fn wide_characters_take_two_columns_under_the_caret() {
        for (line, expected) in [
            (
                "local s = '日本語' .. keys",
                "  |                       ^^^^",
            ),
            ("local s = '😀' .. keys", "  |                   ^^^^"),
            ("local s = 'e\u{301}' .. keys", "  |                  ^^^^"),
        ] {
            let (_, caret) = caret_under(line, "keys");
            assert_eq!(caret, expected, "{line}");
        }
        let (_, caret) = caret_under("x = '日本' .. 1", "'日本'");
        assert_eq!(caret, "  |     ^^^^^^");
        // The column in `-->` stays a count of characters.
        let line = "local s = '日本語' .. keys";
        assert_eq!(locate(line, line.find("keys").unwrap()).1, 20);
    }

    #[test]
    fn lines_give_each_line_s_text() {
        let source = b"one\rtwo\r\n\xffthree\n";
        let lines = Lines::new(source);
        assert_eq!(lines.text(source, 1).as_deref(), Some("one"));
        assert_eq!(lines.text(source, 3).as_deref(), Some("\u{fffd}three"));
        assert_eq!(lines.text(source, 4).as_deref(), Some(""));
        assert_eq!(lines.text(source, 5), None);
        assert_eq!(lines.text(source, 0), None);
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
