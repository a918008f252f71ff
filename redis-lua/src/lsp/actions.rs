//! Code actions: the fixes of the findings at the editor's cursor, each a
//! list of edits of the document made into a `WorkspaceEdit`.
//!
//! A fix is a title and [`Edit`]s by byte offsets in the document's text,
//! which is the file's text as the analyzer read it; [`fixes`] is the one
//! place that says which fixes a finding has.

use std::collections::HashMap;

use redis_script_analyzer::fix::Applicability;

use super::diagnostics::Published;
use super::documents::Document;
use super::protocol::{self, CodeAction, TextEdit, Uri, WorkspaceEdit};

/// One replacement: bytes `start..end` of the text become `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The first byte replaced.
    pub(crate) start: usize,
    /// Past the last byte replaced (`start` for an insertion).
    pub(crate) end: usize,
    /// The new text.
    pub(crate) replacement: String,
}

/// A fix of a finding: what it does, and its edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fix {
    /// What the editor shows.
    pub(crate) title: String,
    /// Whether the fix is certain (`redis-lua check --fix` applies it).
    pub(crate) certain: bool,
    /// The edits, none overlapping another.
    pub(crate) edits: Vec<Edit>,
}

/// The fixes of `published`, a diagnostic of the document whose text is
/// `text`: those the analyzer attached to its finding (the certain ones,
/// which `redis-lua check --fix` applies, and the suggested ones, such as a
/// comment that allows its rule), each edit by the byte offsets of the
/// text the analyzer read, which is `text`. A finding in an included file
/// has its fixes in that file: none is offered on the including document.
pub(crate) fn fixes(published: &Published, text: &str) -> Vec<Fix> {
    let Some(finding) = published.finding.as_ref().filter(|_| published.in_document) else {
        return Vec::new();
    };
    finding
        .fixes
        .iter()
        .map(|fix| Fix {
            title: fix.title.clone(),
            certain: fix.applicability == Applicability::Certain,
            edits: fix
                .edits
                .iter()
                .map(|edit| Edit {
                    start: edit.start.offset.min(text.len()),
                    end: edit.end.offset.min(text.len()),
                    replacement: edit.replacement.clone(),
                })
                .collect(),
        })
        .collect()
}

/// The code actions of the document's diagnostics (`published`, of its
/// text as it is) that touch bytes `start..end` (the editor's selection, or
/// its cursor).
pub(crate) fn code_actions(
    uri: &Uri,
    document: &Document,
    published: &[Published],
    start: usize,
    end: usize,
) -> Vec<CodeAction> {
    published
        .iter()
        .filter(|published| published.span.start <= end && start <= published.span.end)
        .flat_map(|published| {
            fixes(published, &document.text)
                .into_iter()
                .map(|fix| CodeAction {
                    title: fix.title,
                    kind: protocol::QUICKFIX,
                    diagnostics: vec![published.diagnostic.clone()],
                    is_preferred: fix.certain,
                    edit: workspace_edit(uri, document, &fix.edits),
                })
        })
        .collect()
}

/// `edits` of the document at `uri`, as LSP edits.
pub(crate) fn workspace_edit(uri: &Uri, document: &Document, edits: &[Edit]) -> WorkspaceEdit {
    let edits = edits
        .iter()
        .map(|edit| TextEdit {
            range: document.lines.range(&document.text, edit.start, edit.end),
            new_text: edit.replacement.clone(),
        })
        .collect();
    WorkspaceEdit {
        changes: HashMap::from([(uri.clone(), edits)]),
    }
}
