//! The `editor` section: `redis-lua lsp` as a user types, on a script of
//! 3,000 lines. The server runs in this process over an in-memory
//! connection (`lsp_server::Connection::memory`, the messages the client
//! would send over stdin), so the figures are the server's side: from the
//! change sent to its diagnostics received, checked, converted and
//! published. Two files, generated into `target/bench-editor/`: one the
//! checks pass, one with a misspelt command in each of its functions (over
//! 300 findings, each converted and published with its fixes).
//!
//! Each keystroke inserts a space at the start of the middle line, or takes
//! it out again; the server checks once per keystroke (the harness waits
//! for each one's diagnostics before the next).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use lsp_server::{Connection, Message, Notification, Request};
use serde_json::{Value, json};

use crate::markdown::{figure, table_head, table_row, verdict};
use crate::options::{Options, repo_root};
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::stats::{Summary, number};

/// The lines of the generated scripts.
pub const LINES: usize = 3_000;

/// What a keystroke's check must take at most, in milliseconds.
pub const TARGET_MS: f64 = 20.0;

/// One file's figures.
#[derive(Debug, Clone)]
pub struct File {
    /// What it is, for the report.
    pub name: &'static str,
    pub lines: usize,
    /// The diagnostics published on it.
    pub findings: usize,
    /// From opening it to its diagnostics, in milliseconds.
    pub open_ms: f64,
    /// From each keystroke to its diagnostics, in milliseconds.
    pub keystroke_ms: Vec<f64>,
}

#[derive(Debug, Clone)]
pub struct Results {
    pub files: Vec<File>,
}

pub fn run(options: &Options) -> Result<Results, String> {
    let dir = repo_root().join("target/bench-editor");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let keystrokes = if options.quick { 10 } else { 40 };
    let mut files = Vec::new();
    for (name, mistake) in [("checks clean", false), ("a mistake per function", true)] {
        let path = dir.join(if mistake { "mistakes.lua" } else { "clean.lua" });
        let text = script(mistake);
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(measure(name, &dir, &path, &text, keystrokes)?);
    }
    Ok(Results { files })
}

/// A script of [`LINES`] lines: functions of a table (a script has at most
/// 200 locals) that read, write and count a hash, as real scripts do;
/// `mistake` misspells a command in each.
fn script(mistake: bool) -> String {
    let get = if mistake { "HGETT" } else { "HGET" };
    let mut lines = vec![
        "local rcall = redis.call".to_owned(),
        "local M = {}".to_owned(),
    ];
    let mut n = 0;
    while lines.len() + 9 < LINES {
        n += 1;
        lines.extend([
            format!("function M.step{n}(key, arg)"),
            format!("  local value = rcall('{get}', key, 'field{n}')"),
            "  if not value then".to_owned(),
            format!("    rcall('HSET', key, 'field{n}', arg)"),
            format!("    rcall('EXPIRE', key, {n})"),
            "  end".to_owned(),
            "  local count = tonumber(rcall('INCRBY', key .. ':count', 1))".to_owned(),
            "  return count + string.len(arg)".to_owned(),
            "end".to_owned(),
        ]);
    }
    lines.push("return M.step1(KEYS[1], ARGV[1])".to_owned());
    while lines.len() < LINES {
        lines.push("-- the end".to_owned());
    }
    lines.join("\n") + "\n"
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Opens `path` (whose text is `text`) in a server of its own, then types
/// `keystrokes` keys in it.
fn measure(
    name: &'static str,
    root: &Path,
    path: &Path,
    text: &str,
    keystrokes: usize,
) -> Result<File, String> {
    let (server, client) = Connection::memory();
    let serving = std::thread::spawn(move || redis_lua::lsp::serve(&server));
    let send = |message: Message| {
        client
            .sender
            .send(message)
            .map_err(|e| format!("the server stopped: {e}"))
    };
    let notify = |method: &str, params: Value| {
        send(Message::Notification(Notification::new(
            method.to_owned(),
            params,
        )))
    };
    // The next diagnostics the server publishes: how many.
    let published = || -> Result<usize, String> {
        loop {
            match client.receiver.recv() {
                Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                    return Ok(n.params["diagnostics"].as_array().map_or(0, Vec::len));
                }
                Ok(_) => {}
                Err(e) => return Err(format!("the server stopped: {e}")),
            }
        }
    };
    let document = uri(path);
    send(Message::Request(Request::new(
        1.into(),
        "initialize".to_owned(),
        json!({ "processId": null, "rootUri": uri(root), "capabilities": {} }),
    )))?;
    match client.receiver.recv() {
        Ok(Message::Response(_)) => {}
        other => return Err(format!("no answer to initialize: {other:?}")),
    }
    notify("initialized", json!({}))?;
    let clock = Instant::now();
    notify(
        "textDocument/didOpen",
        json!({ "textDocument": {
            "uri": document, "languageId": "lua", "version": 1, "text": text,
        }}),
    )?;
    let findings = published()?;
    let open_ms = clock.elapsed().as_secs_f64() * 1000.0;
    let middle = LINES / 2;
    let mut keystroke_ms = Vec::new();
    for key in 0..keystrokes {
        let at = json!({ "line": middle, "character": 0 });
        let change = if key % 2 == 0 {
            json!({ "range": { "start": at, "end": at }, "text": " " })
        } else {
            let after = json!({ "line": middle, "character": 1 });
            json!({ "range": { "start": at, "end": after }, "text": "" })
        };
        let clock = Instant::now();
        notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": document, "version": key + 2 },
                "contentChanges": [change],
            }),
        )?;
        let now = published()?;
        keystroke_ms.push(clock.elapsed().as_secs_f64() * 1000.0);
        if now != findings {
            return Err(format!(
                "{name}: {now} diagnostics after a keystroke, {findings} before"
            ));
        }
    }
    send(Message::Request(Request::new(
        2.into(),
        "shutdown".to_owned(),
        Value::Null,
    )))?;
    // Its answer read before `exit`, so that the server has sent all.
    while !matches!(client.receiver.recv(), Ok(Message::Response(_)) | Err(_)) {}
    notify("exit", Value::Null)?;
    drop(client);
    serving
        .join()
        .map_err(|_| "the server panicked".to_owned())?;
    Ok(File {
        name,
        lines: LINES,
        findings,
        open_ms,
        keystroke_ms,
    })
}

/// Where the generated files are, as the report names it.
fn shown_dir() -> PathBuf {
    PathBuf::from("target/bench-editor")
}

/// The section's results, or why it could not run.
impl Part for Result<Results, String> {
    fn section(&self) -> Section {
        Section::Editor
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let results = match self {
            Ok(results) => results,
            Err(why) => {
                let _ = writeln!(md, "Could not run: {why}.\n");
                return;
            }
        };
        let keystrokes = results.files.first().map_or(0, |f| f.keystroke_ms.len());
        let _ = writeln!(
            md,
            "`redis-lua lsp` in this process, over an in-memory connection (the messages an \
             editor sends), on two generated scripts of {} lines in `{}`: one the checks \
             pass, one with a misspelt command in each function. The file is opened, then \
             {keystrokes} keystrokes each insert or delete a space on its middle line; each is \
             timed from the change sent to its diagnostics received (checked, converted, \
             published), one at a time, pinned to the clients' CPU. The target: under \
             {TARGET_MS} ms a keystroke.\n",
            number(LINES as f64, 0),
            shown_dir().display()
        );
        table_head(
            md,
            [
                "file",
                "lines",
                "diagnostics",
                "open to diagnostics, ms",
                "keystroke to diagnostics, ms",
            ],
        );
        for file in &results.files {
            table_row(
                md,
                [
                    file.name.to_owned(),
                    number(file.lines as f64, 0),
                    file.findings.to_string(),
                    format!("{:.1}", file.open_ms),
                    figure(&file.keystroke_ms, 1),
                ],
            );
        }
        let _ = writeln!(md);
    }

    fn targets(&self) -> Vec<Target> {
        let Ok(results) = self else {
            return Vec::new();
        };
        results
            .files
            .iter()
            .filter_map(|file| {
                let summary = Summary::of(&file.keystroke_ms)?;
                Some(Target {
                    what: format!(
                        "`redis-lua lsp`: a keystroke on a {}-line script ({}) to its diagnostics",
                        number(file.lines as f64, 0),
                        file.name
                    ),
                    goal: "< 20 ms",
                    measured: format!("{} ms", summary.show(1)),
                    verdict: verdict(&summary, TARGET_MS, true),
                })
            })
            .collect()
    }
}
