//! The fix a finding carries: its edits of the text the rules read.

use crate::syntax::tree::Span;

/// How sure a fix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Applicability {
    /// The script means exactly this: a tool may apply it unasked.
    Certain,
    /// One way out among others (allowing the rule, a name that may be
    /// meant): offered, never applied unasked.
    Suggested,
}

/// One change of the text: `span` replaced by `replacement` (an empty span
/// inserts, an empty replacement deletes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Edit {
    /// The bytes replaced, in the text the diagnostic is on.
    pub span: Span,
    /// What they become.
    pub replacement: String,
}

impl Edit {
    /// `span` replaced by `replacement`.
    pub(crate) fn replace(span: Span, replacement: impl Into<String>) -> Edit {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    /// `text` inserted at byte `at`.
    pub(crate) fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit::replace(Span::new(at, at), text)
    }

    /// `span` deleted.
    pub(crate) fn delete(span: Span) -> Edit {
        Edit::replace(span, String::new())
    }
}

/// A change that corrects a finding: its edits, which do not overlap, all
/// applied together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Fix {
    /// What it does, in a few words: "replace `!=` with `~=`".
    pub title: String,
    /// Whether a tool may apply it unasked.
    pub applicability: Applicability,
    /// The edits, in the order of the text.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A certain fix (see [`Applicability::Certain`]).
    pub(crate) fn certain(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(title, Applicability::Certain, edits)
    }

    /// A fix of `applicability`, its edits in the order of the text.
    pub(crate) fn new(
        title: impl Into<String>,
        applicability: Applicability,
        mut edits: Vec<Edit>,
    ) -> Fix {
        edits.sort_by_key(|edit| (edit.span.start, edit.span.end));
        Fix {
            title: title.into(),
            applicability,
            edits,
        }
    }

    /// A name written `written` respelt `right` by `edits`: certain where
    /// [`certain_respelling`](crate::suggest::certain_respelling) says so,
    /// else a suggestion.
    pub(crate) fn respelling(
        title: impl Into<String>,
        written: &str,
        right: &str,
        edits: Vec<Edit>,
    ) -> Fix {
        let applicability = if crate::suggest::certain_respelling(written, right) {
            Applicability::Certain
        } else {
            Applicability::Suggested
        };
        Fix::new(title, applicability, edits)
    }
}

/// The span of the text between the quotes of the string literal at
/// `literal` in `source`, when it is written plainly: in single or double
/// quotes, without escapes (so its text is its value). A fix replaces that
/// text and the quotes stay as written.
pub(crate) fn quoted_text(source: &[u8], literal: Span) -> Option<Span> {
    let written = source.get(literal.start..literal.end)?;
    let (&open, rest) = written.split_first()?;
    let (&close, inner) = rest.split_last()?;
    (matches!(open, b'\'' | b'"') && open == close && !inner.contains(&b'\\'))
        .then(|| Span::new(literal.start + 1, literal.end - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_text_is_replaced_only_when_written_plainly() {
        let source = br#"x('GTE', "GTE", [[GTE]], 'G\84E')"#;
        assert_eq!(quoted_text(source, Span::new(2, 7)), Some(Span::new(3, 6)));
        assert_eq!(
            quoted_text(source, Span::new(9, 14)),
            Some(Span::new(10, 13))
        );
        assert_eq!(quoted_text(source, Span::new(16, 23)), None);
        assert_eq!(quoted_text(source, Span::new(25, 32)), None);
    }
}
