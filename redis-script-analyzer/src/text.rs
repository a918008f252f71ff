//! A script as the server reads it: bytes, not text. Lua 5.1 strings and
//! comments may hold any byte, and its lexer ends a line at `\n` or `\r`,
//! taking `\r\n` and `\n\r` for one line ending (`inclinenumber`). What is
//! ASCII syntax around the Lua (a shebang, a header, a directive) is read
//! from the bytes through [`same_offsets`].

use std::borrow::Cow;

/// The length of the line ending at byte `at` of `bytes`, as Lua counts
/// them: 2 for `\r\n` or `\n\r`, 1 for a lone `\n` or `\r`, 0 for none.
pub(crate) fn ending_at(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(&first @ (b'\n' | b'\r')) => match bytes.get(at + 1) {
            Some(&next @ (b'\n' | b'\r')) if next != first => 2,
            _ => 1,
        },
        _ => 0,
    }
}

/// Where the line starting at `start` ends: its first `\n` or `\r`, or the end.
pub(crate) fn line_end(bytes: &[u8], start: usize) -> usize {
    bytes[start.min(bytes.len())..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |at| start + at)
}

/// One line of a source, by byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    /// Its first byte.
    pub start: usize,
    /// Past its text: where its line ending (if any) starts.
    pub end: usize,
    /// Past its line ending: where the next line starts.
    pub next: usize,
}

/// The lines of `bytes` as Lua counts them; no empty line after a final
/// line ending.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = Line> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let end = line_end(bytes, start);
        at = end + ending_at(bytes, end);
        Some(Line {
            start,
            end,
            next: at,
        })
    })
}

/// `bytes` as text with the same byte offsets: each byte of an invalid
/// UTF-8 sequence becomes `?`. For the parts of a script whose syntax is
/// ASCII, so that their spans still index the bytes.
pub(crate) fn same_offsets(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    Cow::Owned(text)
}

/// Where the last character of `bytes` starts: a UTF-8 character, or the
/// last invalid sequence (which shows as one U+FFFD); 0 when empty.
pub(crate) fn last_char_start(bytes: &[u8]) -> usize {
    let mut start = 0;
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        if let Some((offset, _)) = chunk.valid().char_indices().next_back() {
            start = at + offset;
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            start = at;
        }
        at += chunk.invalid().len();
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_ending_counts_once() {
        let starts = |bytes: &[u8]| lines(bytes).map(|line| line.start).collect::<Vec<_>>();
        assert_eq!(starts(b"a\nb\nc"), [0, 2, 4]);
        assert_eq!(starts(b"a\r\nb\r\nc"), [0, 3, 6]);
        assert_eq!(starts(b"a\rb\rc"), [0, 2, 4]);
        assert_eq!(starts(b"a\n\rb\n\rc"), [0, 3, 6]);
        // Two of the same are two line endings; an empty line between.
        assert_eq!(starts(b"a\r\rb\n\nc"), [0, 2, 3, 5, 6]);
        assert_eq!(starts(b"a\n"), [0]);
        let line = lines(b"ab\r\ncd").next().unwrap();
        assert_eq!(
            line,
            Line {
                start: 0,
                end: 2,
                next: 4
            }
        );
    }

    #[test]
    fn invalid_bytes_keep_their_offsets() {
        let bytes = b"-- \xff\xfe x\n\xc3\xa9";
        let text = same_offsets(bytes);
        assert_eq!(text, "-- ?? x\n\u{e9}");
        assert_eq!(text.len(), bytes.len());
        assert!(matches!(same_offsets(b"plain"), Cow::Borrowed("plain")));
        assert_eq!(last_char_start(b"ab\xc3\xa9"), 2);
        assert_eq!(last_char_start(b"ab\xff"), 2);
        assert_eq!(last_char_start(b""), 0);
    }
}
