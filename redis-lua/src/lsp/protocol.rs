//! The few types of the Language Server Protocol (3.17) the server reads
//! and writes, by their JSON names: written here rather than taken from a
//! crate of every LSP type, whose build would double the tool's.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// A place in a document: a 0-based line and a column in UTF-16 code units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct Position {
    pub(crate) line: u32,
    pub(crate) character: u32,
}

impl Position {
    pub(crate) fn new(line: u32, character: u32) -> Position {
        Position { line, character }
    }
}

/// From `start` to `end` (exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct Range {
    pub(crate) start: Position,
    pub(crate) end: Position,
}

impl Range {
    pub(crate) fn new(start: Position, end: Position) -> Range {
        Range { start, end }
    }
}

/// A document's URI, as the client writes it (and compared as written).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Uri(pub(crate) String);

impl Uri {
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// `{ "uri": ... }`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TextDocument {
    pub(crate) uri: Uri,
}

/// An opened document.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TextDocumentItem {
    pub(crate) uri: Uri,
    pub(crate) version: i32,
    pub(crate) text: String,
}

/// A document at a version.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct VersionedTextDocument {
    pub(crate) uri: Uri,
    pub(crate) version: i32,
}

/// `textDocument/didOpen`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DidOpen {
    pub(crate) text_document: TextDocumentItem,
}

/// `textDocument/didChange`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DidChange {
    pub(crate) text_document: VersionedTextDocument,
    pub(crate) content_changes: Vec<Change>,
}

/// One change: `text` in place of `range`, or of the whole text.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Change {
    #[serde(default)]
    pub(crate) range: Option<Range>,
    pub(crate) text: String,
}

/// `textDocument/didClose`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DidClose {
    pub(crate) text_document: TextDocument,
}

/// `textDocument/hover` and `textDocument/completion`: a place.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AtPosition {
    pub(crate) text_document: TextDocument,
    pub(crate) position: Position,
}

/// `textDocument/codeAction`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CodeActionParams {
    pub(crate) text_document: TextDocument,
    pub(crate) range: Range,
    pub(crate) context: CodeActionContext,
}

/// What the client wants of `textDocument/codeAction`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CodeActionContext {
    /// The kinds of action wanted (`quickfix`...); all when absent.
    #[serde(default)]
    pub(crate) only: Option<Vec<String>>,
}

/// A diagnostic's severity: an error.
pub(crate) const ERROR: u8 = 1;
/// A diagnostic's severity: a warning.
pub(crate) const WARNING: u8 = 2;

/// A finding, as the client shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Diagnostic {
    pub(crate) range: Range,
    pub(crate) severity: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) code: Option<String>,
    pub(crate) source: &'static str,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) related_information: Vec<RelatedInformation>,
}

/// Another place a diagnostic is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RelatedInformation {
    pub(crate) location: Location,
    pub(crate) message: String,
}

/// A range of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Location {
    pub(crate) uri: Uri,
    pub(crate) range: Range,
}

/// `textDocument/publishDiagnostics`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PublishDiagnostics {
    pub(crate) uri: Uri,
    pub(crate) diagnostics: Vec<Diagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<i32>,
}

/// Markdown text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Markdown {
    kind: &'static str,
    value: String,
}

impl Markdown {
    pub(crate) fn new(value: String) -> Markdown {
        Markdown {
            kind: "markdown",
            value,
        }
    }
}

/// The answer to `textDocument/hover`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Hover {
    pub(crate) contents: Markdown,
    pub(crate) range: Range,
}

/// A completion item's kind: a function (a command).
pub(crate) const FUNCTION: u8 = 3;
/// A completion item's kind: a keyword (a word of a command's arguments).
pub(crate) const KEYWORD: u8 = 14;
/// A completion item's kind: an enum's member (a subcommand).
pub(crate) const ENUM_MEMBER: u8 = 20;

/// One completion.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CompletionItem {
    pub(crate) label: String,
    pub(crate) kind: u8,
    /// What the client matches the typed text against: the label, in the
    /// case typed, so that a client that filters by case keeps it.
    pub(crate) filter_text: String,
    pub(crate) detail: String,
    pub(crate) documentation: Markdown,
    pub(crate) text_edit: TextEdit,
}

/// `new_text` in place of `range`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TextEdit {
    pub(crate) range: Range,
    pub(crate) new_text: String,
}

/// Edits of documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct WorkspaceEdit {
    pub(crate) changes: HashMap<Uri, Vec<TextEdit>>,
}

/// The code action kind of a fix.
pub(crate) const QUICKFIX: &str = "quickfix";

/// A fix offered.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CodeAction {
    pub(crate) title: String,
    pub(crate) kind: &'static str,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// A certain fix: the one an editor applies by its "fix" shortcut.
    #[serde(rename = "isPreferred")]
    pub(crate) is_preferred: bool,
    pub(crate) edit: WorkspaceEdit,
}
