//! Places in a document, in the two ways they are counted: byte offsets
//! in its text (what the analyzer's findings, edits and the call scanner
//! use), and LSP positions (lines ending at `\n`, `\r\n` or `\r`; columns
//! in UTF-16 code units). The analyzer's lines and columns (lines as Lua
//! ends them) never reach the language server: it reads spans.

use super::protocol::{Position, Range};

/// Where each line of a text starts, as LSP counts lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The lines of `text`.
    pub(crate) fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut at = 0;
        while at < bytes.len() {
            match bytes[at] {
                b'\r' if bytes.get(at + 1) == Some(&b'\n') => {
                    at += 2;
                    starts.push(at);
                }
                b'\n' | b'\r' => {
                    at += 1;
                    starts.push(at);
                }
                _ => at += 1,
            }
        }
        LineIndex { starts }
    }

    /// The position of byte `offset` of `text` (the text these are the lines
    /// of); an offset past the end, or inside a character, is taken back to
    /// the end or to the character's start.
    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset);
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let character = text[start..offset].encode_utf16().count();
        Position::new(to_u32(line), to_u32(character))
    }

    /// The range of bytes `start..end` of `text`.
    pub(crate) fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(
            self.position(text, start),
            self.position(text, end.max(start)),
        )
    }

    /// The byte offset of `position` in `text`. As LSP asks, a character
    /// past the end of its line means the line's end, and a line past the
    /// last means the end of the text; a position inside a character (the
    /// middle of a surrogate pair) is its start.
    pub(crate) fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let line = &text[start..self.line_end(text, position.line as usize)];
        let mut units = 0;
        for (at, c) in line.char_indices() {
            units += c.len_utf16();
            if units > position.character as usize {
                return start + at;
            }
        }
        start + line.len()
    }

    /// Where line `line`'s text ends: before its line ending.
    fn line_end(&self, text: &str, line: usize) -> usize {
        let Some(&next) = self.starts.get(line + 1) else {
            return text.len();
        };
        let ending = if text.as_bytes()[..next].ends_with(b"\r\n") {
            2
        } else {
            1
        };
        next - ending
    }
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// LSP's numbers are `u32`; a text of 4 GiB is not edited here.
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is one unit (two bytes), `😀` two units (four bytes).
        let text = "local s = 'é😀' -- x\nreturn s";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position::new(0, 19));
        assert_eq!(index.offset(text, Position::new(0, 19)), x);
        let after_emoji = text.find('\'').unwrap() + 1 + 2 + 4;
        assert_eq!(index.position(text, after_emoji), Position::new(0, 14));
        // Inside the surrogate pair: the character's start.
        assert_eq!(index.offset(text, Position::new(0, 13)), after_emoji - 4);
        assert_eq!(index.position(text, text.len()), Position::new(1, 8));
    }

    #[test]
    fn lines_end_as_lsp_ends_them() {
        let text = "a\r\nb\rc\nd\n\re";
        let index = LineIndex::new(text);
        for (letter, line) in [('a', 0), ('b', 1), ('c', 2), ('d', 3), ('e', 5)] {
            let at = text.find(letter).unwrap();
            assert_eq!(index.position(text, at), Position::new(line, 0), "{letter}");
            assert_eq!(index.offset(text, Position::new(line, 0)), at, "{letter}");
        }
        // Past a line's end: its end, before the line ending.
        assert_eq!(index.offset(text, Position::new(0, 9)), 1);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
    }
}
