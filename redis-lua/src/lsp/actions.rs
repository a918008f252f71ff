//! Code actions: the fixes of the findings at the editor's cursor, each a
//! list of edits of the document made into a `WorkspaceEdit`.
//!
//! A fix is a title and [`Edit`]s by byte offsets in the document's text,
//! which is the file's text as the analyzer read it; [`fixes`] is the one
//! place that says which fixes a finding has.

use std::collections::HashMap;

use redis_script_analyzer::{Checker, INLINE_ALLOW, Rule, inline_allows};

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
    /// The edits, none overlapping another.
    pub(crate) edits: Vec<Edit>,
}

/// The fixes of `published`, a diagnostic of the document whose text is
/// `text`: a comment that allows its rule, where the rule may be allowed.
/// A fix the analyzer attaches to a finding in this document joins it
/// here, each of its edits an [`Edit`] by the same byte offsets (the
/// analyzer read this very text).
pub(crate) fn fixes(published: &Published, text: &str) -> Vec<Fix> {
    let Some(finding) = &published.finding else {
        return Vec::new();
    };
    allow_comment(finding.rule, published.span.start, text)
        .into_iter()
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

/// A line `-- redis-lua: allow(rule)` above the line of byte `at`, with its
/// indentation: such a comment allows the rule in the whole script, and
/// above the finding it says why it is there. Where that line is the
/// shebang or in the header (the `---` lines that open the file, which a
/// `--` line would end) the comment goes under them, and where the line
/// starts inside a long string or comment, at the top. Each place is tried
/// by reading the comments of the text it would make.
fn allow_comment(rule: Rule, at: usize, text: &str) -> Option<Fix> {
    if !rule.allowable_by(Checker::CommandLine) {
        return None;
    }
    let comment = format!("-- {INLINE_ALLOW} allow({rule})");
    let ending = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let line = line_start(text, at);
    let top = after_header(text);
    let indent: String = text[line..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let places = [(line, indent.as_str()), (top, "")];
    places
        .into_iter()
        .filter(|&(place, _)| place >= top)
        .find_map(|(place, indent)| {
            // At the end of a text without a final line ending, a line first.
            let before = if place > 0 && !text[..place].ends_with(['\n', '\r']) {
                ending
            } else {
                ""
            };
            let replacement = format!("{before}{indent}{comment}{ending}");
            let mut edited = text.to_owned();
            edited.insert_str(place, &replacement);
            let (allowed, _) = inline_allows(&edited, Checker::CommandLine);
            allowed.allows(rule).then(|| Fix {
                title: format!("Allow `{rule}` in this script: add `{comment}`"),
                edits: vec![Edit {
                    start: place,
                    end: place,
                    replacement,
                }],
            })
        })
}

/// Where the line holding byte `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |ending| ending + 1)
}

/// Where the first line after the shebang and the header starts.
fn after_header(text: &str) -> usize {
    let mut at = 0;
    let mut first = true;
    while at < text.len() {
        let rest = &text[at..];
        let opens = (first && rest.starts_with("#!")) || rest.starts_with("---");
        if !opens {
            break;
        }
        first = false;
        at = match rest.find(['\n', '\r']) {
            Some(end) if rest[end..].starts_with("\r\n") => at + end + 2,
            Some(end) => at + end + 1,
            None => text.len(),
        };
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, fix: &Fix) -> String {
        let mut text = text.to_owned();
        for edit in fix.edits.iter().rev() {
            text.replace_range(edit.start..edit.end, &edit.replacement);
        }
        text
    }

    #[test]
    fn above_the_line_with_its_indentation() {
        let text = "if x then\n  return redis.call('NOPE')\nend\n";
        let at = text.find("redis").unwrap();
        let fix = allow_comment(Rule::UnknownCommands, at, text).unwrap();
        assert_eq!(
            apply(text, &fix),
            "if x then\n  -- redis-lua: allow(unknown_commands)\n  return redis.call('NOPE')\nend\n"
        );
        assert!(fix.title.contains("`unknown_commands`"), "{}", fix.title);
    }

    #[test]
    fn under_the_shebang_and_the_header() {
        let text = "#!lua flags=no-writes\n---@key k string\n---@param a string\nreturn 1";
        let at = text.find("---@param").unwrap();
        let fix = allow_comment(Rule::Unread, at, text).unwrap();
        assert_eq!(
            apply(text, &fix),
            "#!lua flags=no-writes\n---@key k string\n---@param a string\n\
             -- redis-lua: allow(unread)\nreturn 1"
        );
        let text = "---@key k string";
        let fix = allow_comment(Rule::Unread, 0, text).unwrap();
        assert_eq!(
            apply(text, &fix),
            "---@key k string\n-- redis-lua: allow(unread)\n"
        );
    }

    #[test]
    fn at_the_top_when_the_line_starts_in_a_long_string() {
        let text = "local s = [[\n]] .. redis.call('NOPE')\r\n";
        let at = text.find("redis").unwrap();
        let fix = allow_comment(Rule::UnknownCommands, at, text).unwrap();
        assert_eq!(
            apply(text, &fix),
            "-- redis-lua: allow(unknown_commands)\r\nlocal s = [[\n]] .. redis.call('NOPE')\r\n"
        );
    }

    #[test]
    fn rules_the_server_enforces_have_no_allow() {
        assert_eq!(allow_comment(Rule::Syntax, 0, "return +"), None);
    }
}
