//! A fix placed in a file: its edits in byte offsets and in lines and
//! columns of the file they are in (a script, or a file it includes), and
//! the suggested fix that allows a rule with a comment.

use std::path::PathBuf;

use super::edit::{Applicability, Fix};
use crate::compose::Composed;
use crate::inline_allow::INLINE_ALLOW;
use crate::report::Lines;
use crate::rule::Rule;
use crate::syntax::lexer::Lexer;
use crate::syntax::tree::Span;

/// A place in a file, in the units each kind of client needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Position {
    /// The byte offset in the file.
    pub offset: usize,
    /// The 1-based line, as Lua counts lines (`\n`, `\r`, `\r\n` and `\n\r`
    /// each end one).
    pub line: usize,
    /// The 1-based column, in characters of the line (an invalid UTF-8
    /// sequence counts one), as [`Finding`](crate::lint::Finding)'s.
    pub column: usize,
    /// The byte offset from the start of the line: with the line's text, an
    /// editor computes its own column (UTF-16 units, for a language server).
    pub line_offset: usize,
}

impl Position {
    /// Byte `offset` of `source`, whose lines are `lines`.
    pub(crate) fn at(lines: &Lines, source: &[u8], offset: usize) -> Position {
        let offset = offset.min(source.len());
        let (line, column, _) = lines.locate(source, offset);
        Position {
            offset,
            line,
            column,
            line_offset: offset - lines.start_of(line),
        }
    }
}

/// An [`Edit`](super::Edit) placed in a file: the bytes `start.offset..end.offset`
/// replaced by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FileEdit {
    /// Where the bytes replaced start.
    pub start: Position,
    /// Where they end (exclusive; `start` for an insertion).
    pub end: Position,
    /// What they become.
    pub replacement: String,
}

/// A [`Fix`] placed in the file its edits are in: the file of the finding
/// it corrects (a script, or a file the script includes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FileFix {
    /// What it does, in a few words.
    pub title: String,
    /// Whether a tool may apply it unasked.
    pub applicability: Applicability,
    /// The file on disk, as read (the finding's `file` is as shown).
    pub path: PathBuf,
    /// The edits, in the order of the file, not overlapping.
    pub edits: Vec<FileEdit>,
}

/// `fix`, made on `composed`'s text, placed in the file of `composed` at
/// `index`; `None` when an edit lies elsewhere (in another file, or across
/// an include), where it would not be the finding's own.
pub(crate) fn place(fix: &Fix, composed: &Composed, index: usize) -> Option<FileFix> {
    let file = &composed.files[index];
    let lines = composed.files.lines(index);
    let edits = fix
        .edits
        .iter()
        .map(|edit| {
            let (in_file, span) = composed.locate_exact(edit.span)?;
            (composed.files.index_of(in_file) == index).then(|| FileEdit {
                start: Position::at(lines, &file.source, span.start),
                end: Position::at(lines, &file.source, span.end),
                replacement: edit.replacement.clone(),
            })
        })
        .collect::<Option<Vec<FileEdit>>>()?;
    Some(FileFix {
        title: fix.title.clone(),
        applicability: fix.applicability,
        path: file.path.clone(),
        edits,
    })
}

/// The lines of one file that an allow comment may go above: for
/// [`allow_here`], read once per file.
pub(crate) struct CodeLines {
    /// The strings and long comments that run over several lines, in
    /// order: a line starting inside one is text of it, not code.
    multiline: Vec<Span>,
}

impl CodeLines {
    /// The lines of `source` (a whole file, which the lexer reads on its own).
    pub(crate) fn new(source: &[u8]) -> CodeLines {
        CodeLines {
            multiline: Lexer::multiline_spans(source),
        }
    }

    /// Whether the line starting at `start` starts outside every string and comment.
    fn starts_code(&self, start: usize) -> bool {
        let after = self.multiline.partition_point(|span| span.start < start);
        after == 0 || self.multiline[after - 1].end <= start
    }
}

/// The suggested fix that allows `rule` with a comment on a line of its
/// own above the line holding byte `at` of `source` (the file at `path`,
/// whose lines are `lines`), indented as that line and ended as it is;
/// `None` where no line can go (inside a multi-line string or comment, or
/// above a `#!` line).
pub(crate) fn allow_here(
    rule: Rule,
    path: &std::path::Path,
    source: &[u8],
    lines: &Lines,
    code: &CodeLines,
    at: usize,
) -> Option<FileFix> {
    // Nothing here reads the whole line: a generated script may be one
    // long line with many findings.
    let line = lines.line_of(at);
    let start = lines.start_of(line);
    let rest = &source[start..];
    if !code.starts_code(start) || rest.starts_with(b"#!") {
        return None;
    }
    let indent_len = rest
        .iter()
        .take_while(|&&byte| byte == b' ' || byte == b'\t')
        .count();
    let indent = String::from_utf8_lossy(&rest[..indent_len]);
    // In a header (a run of `---` lines) a `--` line would end the header:
    // the allow is one of its `---` lines there, which reads the same.
    let dashes = if rest[indent_len..].starts_with(b"---") {
        "---"
    } else {
        "--"
    };
    let comment = format!(
        "{indent}{dashes} {} allow({}){}",
        INLINE_ALLOW,
        rule.name(),
        line_ending(source, lines, line)
    );
    let here = Position::at(lines, source, start);
    Some(FileFix {
        title: format!("allow `{}` here", rule.name()),
        applicability: Applicability::Suggested,
        path: path.to_path_buf(),
        edits: vec![FileEdit {
            start: here,
            end: here,
            replacement: comment,
        }],
    })
}

/// The line ending of line `line` of `source` (1-based), or, on a last
/// line without one, of the line before it; `\n` in a file of one line.
fn line_ending(source: &[u8], lines: &Lines, line: usize) -> String {
    // The ending of the line before the line `next`: its last byte, and
    // the byte before when that is a line break too (its text has none).
    let ending_before = |next: usize| {
        let (start, end) = (lines.start_of(next - 1), lines.start_of(next));
        let two = end - start >= 2 && matches!(source[end - 2], b'\n' | b'\r');
        &source[end - if two { 2 } else { 1 }..end]
    };
    let ending = if line < lines.count() {
        ending_before(line + 1)
    } else if line > 1 {
        ending_before(line)
    } else {
        b"\n"
    };
    String::from_utf8_lossy(ending).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow(source: &[u8], at: usize) -> Option<String> {
        let lines = Lines::new(source);
        let code = CodeLines::new(source);
        let fix = allow_here(
            Rule::UnknownCommands,
            std::path::Path::new("x.lua"),
            source,
            &lines,
            &code,
            at,
        )?;
        let edit = &fix.edits[0];
        assert_eq!(edit.start, edit.end);
        let mut patched = source.to_vec();
        patched.splice(
            edit.start.offset..edit.start.offset,
            edit.replacement.bytes(),
        );
        Some(String::from_utf8_lossy(&patched).into_owned())
    }

    #[test]
    fn an_allow_goes_above_the_line_indented_and_ended_as_it_is() {
        let source = b"local a = 1\nif a then\n\treturn redis.call('GETT')\nend\n";
        let at = source.windows(4).position(|w| w == b"GETT").unwrap();
        assert_eq!(
            allow(source, at).unwrap(),
            "local a = 1\nif a then\n\t-- redis-lua: allow(unknown_commands)\n\
             \treturn redis.call('GETT')\nend\n"
        );
        let source = b"local a = 1\r\n  return redis.call('GETT')";
        assert_eq!(
            allow(source, 20).unwrap(),
            "local a = 1\r\n  -- redis-lua: allow(unknown_commands)\r\n  return redis.call('GETT')"
        );
        // A file of one line without an ending gets `\n`.
        assert_eq!(
            allow(b"return redis.call('GETT')", 8).unwrap(),
            "-- redis-lua: allow(unknown_commands)\nreturn redis.call('GETT')"
        );
        // In a header, as one of its lines.
        assert_eq!(
            allow(b"---@key k string\nreturn 1\n", 3).unwrap(),
            "--- redis-lua: allow(unknown_commands)\n---@key k string\nreturn 1\n"
        );
    }

    #[test]
    fn each_line_s_own_ending_is_read() {
        let ending = |source: &[u8], line: usize| line_ending(source, &Lines::new(source), line);
        // `\n\r` ends one line, then `\n` ends an empty one.
        let source = b"a\n\r\nb";
        assert_eq!(ending(source, 1), "\n\r");
        assert_eq!(ending(source, 2), "\n");
        assert_eq!(ending(source, 3), "\n");
        assert_eq!(ending(b"a\rb\r", 2), "\r");
        assert_eq!(ending(b"a\r\nb", 2), "\r\n");
        assert_eq!(ending(b"b", 1), "\n");
    }

    #[test]
    fn no_allow_goes_inside_a_string_or_a_comment() {
        let source = b"local s = [[\nx]] .. redis.call('GETT')\n--[[\n]] return redis.call('GETT')";
        assert_eq!(allow(source, 20), None);
        assert_eq!(allow(source, source.len() - 3), None);
        let source = b"local s = 'a\\\nb' .. redis.call('GETT')";
        assert_eq!(allow(source, source.len() - 3), None);
        // On the line after a closed one, it may.
        let source = b"local s = [[\nx]]\nreturn redis.call('GETT')";
        assert!(allow(source, source.len() - 3).is_some());
        assert_eq!(allow(b"#!lua\nreturn 1", 1), None);
    }
}
