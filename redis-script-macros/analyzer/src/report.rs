//! Renders a finding in the Lua file the way rustc renders its own:
//! the message, `--> file:line:col`, the line, and a caret under the span.

use crate::ast::Span;

/// 1-based line and column (in characters) of byte `offset`, and the line's text.
pub fn locate(source: &str, offset: usize) -> (usize, usize, &str) {
    let offset = offset.min(source.len());
    let line_start = source[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_end = source[line_start..]
        .find('\n')
        .map_or(source.len(), |at| line_start + at);
    let line_number = source[..line_start].matches('\n').count() + 1;
    let column = source[line_start..offset].chars().count() + 1;
    let text = source[line_start..line_end].trim_end_matches('\r');
    (line_number, column, text)
}

/// `message`, then where in `file` it is, the line and a caret; then the note.
pub fn render(file: &str, source: &str, span: Span, message: &str, note: Option<&str>) -> String {
    let (line, column, text) = locate(source, span.start);
    let width = source
        .get(span.start..span.end.max(span.start))
        .map_or(1, |covered| {
            covered.split('\n').next().unwrap_or("").chars().count()
        })
        .max(1);
    let gutter = " ".repeat(line.to_string().len());
    let mut out = format!(
        "{message}\n{gutter}--> {file}:{line}:{column}\n{gutter} |\n{line} | {text}\n{gutter} | {}{}",
        " ".repeat(column - 1),
        "^".repeat(width)
    );
    if let Some(note) = note {
        out.push_str(&format!("\n{gutter} = note: {note}"));
    }
    out
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
}
