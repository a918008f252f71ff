//! The command calls of a corpus of real scripts, for the tests that run
//! them against a server ([`super::command_arguments`],
//! [`super::wrong_type`]): every `*.lua` of the repository's corpus
//! (`scripts/`, `tests/lua/`, `tests/ui/lua/`, `lua-corpus/`) and of the
//! real projects `.ci/corpora` fetches into `target/corpora/` when they are
//! there. A call is taken with its literal arguments as written, a key as a
//! literal key of one slot (`'{t}:k1'`), and any other value as `'1'`; a
//! call whose last argument spreads values is left out.

use std::collections::BTreeSet;
use std::path::Path;

use redis_script_analyzer::commands::resolve;
use redis_script_analyzer::servers::Server;
use redis_script_test_support::lua;

/// The calls of the corpus, with their keys as `server` places them, and
/// how many files were read (and of those, of real projects).
pub(super) fn corpus_calls(server: Server) -> (BTreeSet<Call>, usize, usize) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = lua::corpus_files(repo);
    let mut project_files = Vec::new();
    lua::lua_files(&repo.join("target/corpora"), &mut project_files);
    project_files.sort();
    let from_projects = project_files.len();
    files.extend(project_files);
    let mut calls = BTreeSet::new();
    for path in &files {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        calls.extend(
            calls_in(&source)
                .into_iter()
                .map(|call| with_keys(call, server)),
        );
    }
    // The repository's own Lua has some 95 calls; with the real projects
    // (which `.ci/corpora --fetch` brings, as CI does) over 200.
    let minimum = if from_projects > 0 { 200 } else { 80 };
    assert!(
        calls.len() > minimum,
        "the corpus is missing: {} calls",
        calls.len()
    );
    (calls, files.len(), from_projects)
}

/// One argument as Lua source: a literal as written, or a stand-in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Word {
    pub(super) lua: String,
    /// The text a string literal holds (`None` for a number or an
    /// expression stood in for).
    pub(super) text: Option<String>,
    pub(super) number: bool,
}

impl Word {
    pub(super) fn text(text: &str) -> Word {
        Word {
            lua: quote(text),
            text: Some(text.to_owned()),
            number: false,
        }
    }
}

/// A call: the command's name, then its arguments.
pub(super) type Call = Vec<Word>;

/// The indexes of `call`'s words at the key positions of its command, as
/// `server`'s `COMMAND` gives them.
pub(super) fn key_positions(call: &Call, server: Server) -> Vec<usize> {
    let name = call[0].text.clone().unwrap_or_default();
    let sub = call.get(1).and_then(|word| word.text.clone());
    let Some(command) = resolve(server, &name, sub.as_deref()) else {
        return Vec::new();
    };
    let last = match command.last_key {
        last if last < 0 => call.len() as i32 + last,
        last => last,
    };
    if command.first_key <= 0 || last < command.first_key {
        return Vec::new();
    }
    let step = command.key_step.max(1) as usize;
    (command.first_key..=last)
        .step_by(step)
        .map(|at| at as usize)
        .filter(|&at| at < call.len())
        .collect()
}

/// `call` with each argument at a key position a literal key of one slot:
/// `'{t}:k1'` for the first argument.
fn with_keys(mut call: Call, server: Server) -> Call {
    for at in key_positions(&call, server) {
        call[at] = Word::text(&format!("{{t}}:k{at}"));
    }
    call
}

/// The calls of `redis.call`, `redis.pcall`, `server.call` and of the
/// locals that alias them (`local rcall = redis.call`), with a literal
/// command name.
fn calls_in(source: &str) -> Vec<Call> {
    let tokens: Vec<&str> = lua::token_spans(source)
        .into_iter()
        .map(|(start, end)| &source[start..end])
        .collect();
    let is_callee = |at: usize| {
        matches!(tokens.get(at), Some(&"redis" | &"server"))
            && tokens.get(at + 1) == Some(&".")
            && matches!(tokens.get(at + 2), Some(&"call" | &"pcall"))
    };
    let mut aliases = BTreeSet::new();
    for at in 0..tokens.len() {
        if tokens[at] == "local" && tokens.get(at + 2) == Some(&"=") && is_callee(at + 3) {
            aliases.insert(tokens[at + 1]);
        }
    }
    let mut calls = Vec::new();
    for at in 0..tokens.len() {
        let open = if is_callee(at) {
            at + 3
        } else if aliases.contains(tokens[at]) && (at == 0 || tokens[at - 1] != "local") {
            at + 1
        } else {
            continue;
        };
        if tokens.get(open) != Some(&"(") {
            continue;
        }
        if let Some(call) = call_at(&tokens[open + 1..])
            && call.first().is_some_and(|name| name.text.is_some())
        {
            calls.push(call);
        }
    }
    calls
}

/// The arguments from just after `(` to the matching `)`; `None` when
/// the last one may spread values.
fn call_at(tokens: &[&str]) -> Option<Call> {
    let mut args: Vec<Vec<&str>> = vec![Vec::new()];
    let mut depth = 0;
    for &token in tokens {
        match token {
            "(" | "{" | "[" => depth += 1,
            ")" | "}" | "]" if depth == 0 => {
                if args.last().is_some_and(Vec::is_empty) {
                    args.pop();
                }
                let last = args.last()?;
                if last.last() == Some(&")") || last == &["..."] {
                    return None;
                }
                return Some(args.iter().map(|arg| word(arg)).collect());
            }
            ")" | "}" | "]" => depth -= 1,
            "," if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(token);
    }
    None
}

/// An argument's tokens as a word: a literal as written, `KEYS[n]` as a
/// key of one slot, anything else as `'1'`.
fn word(tokens: &[&str]) -> Word {
    match tokens {
        [literal] if literal.starts_with(['\'', '"']) => match unquote(literal) {
            Some(text) => Word {
                lua: (*literal).to_owned(),
                text: Some(text),
                number: false,
            },
            None => Word::text("1"),
        },
        [number] if number.starts_with(|c: char| c.is_ascii_digit()) => Word {
            lua: (*number).to_owned(),
            text: None,
            number: true,
        },
        ["-", number] if number.starts_with(|c: char| c.is_ascii_digit()) => Word {
            lua: format!("-{number}"),
            text: None,
            number: true,
        },
        ["KEYS", "[", index, "]"] => Word::text(&format!("{{t}}:k{index}")),
        _ => Word::text("1"),
    }
}

/// A short string literal's text, when it has no escape but `\\`, `\'`,
/// `\"`.
fn unquote(literal: &str) -> Option<String> {
    let inner = literal.get(1..literal.len().checked_sub(1)?)?;
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                escaped @ ('\\' | '\'' | '"') => text.push(escaped),
                _ => return None,
            }
        } else {
            text.push(c);
        }
    }
    Some(text)
}

pub(super) fn quote(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\{byte}"));
                }
            }
        }
    }
    out.push('\'');
    out
}
