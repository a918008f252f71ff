//! The analyzer's parser against the real thing: for every script of a
//! corpus, and mutations of each, [`check_syntax`] must accept exactly what a real server
//! accepts with `SCRIPT LOAD`, and reject the rest with the message it gives
//! (line number included). The server is the one the test harness starts
//! (`REDIS_SCRIPT_SERVER`: Redis 7.0, Valkey 8.1 or 9.1); the Lua parser is the
//! same for both, while the shebang is read as that server reads it
//! ([`shebang::parse`] for it alone): a shebang it refuses must be refused
//! by the server, whose words are then not compared.
//!
//! The corpus: every `*.lua` under the repository's `scripts/`, `tests/lua/`
//! and `tests/ui/lua/` (UTF-8 ones), the fixtures in `lua-corpus/` next to
//! this file (named `ok-*` / `err-*` for what Redis must say, `skip-*` for
//! shebangs Redis rejects for their flags), the parser's own unit-test
//! scripts, and a few scripts built here. Each gets deterministic
//! mutations: tokens deleted, swapped, inserted or replaced, the script cut
//! after a token, a line duplicated; and byte-level edits as the analyzer's
//! robustness test makes them ([`Edit`]): a bit flipped, bytes deleted, a
//! byte inserted, a token of another script spliced in or substituted.
//!
//! Scripts go to the server raw, over a plain socket and pipelined: an
//! error message may hold bytes that are not UTF-8 (Lua quotes the first
//! byte of a non-ASCII character), which `redis-rs` cannot parse.

use std::collections::HashSet;
use std::fs;
use std::net::TcpStream;
use std::path::Path;
use std::time::Instant;

use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{SyntaxError, check_syntax, shebang};
use redis_script_test_support::lua::{self, Edit, INTERESTING_BYTES, token_spans};

use super::raw::Resp;
use super::tables::server_of;
use crate::server;

/// Mutations of each kind per script, at most.
const PER_KIND: usize = 6;
/// Byte-level edits of each kind per script, at most.
const PER_BYTE_KIND: usize = 4;
/// Scripts per pipelined round trip (followed by a SCRIPT FLUSH).
const BATCH: usize = 400;

/// What gets inserted or substituted for a token: tokens of every kind,
/// and starts of tokens that read on (strings, long brackets, comments).
const INSERTS: &[&str] = &[
    "end", ")", "(", "...", "=", "..", ".", "break", "return", "local", ",", ";", "{", "}", "[",
    "]", "x", "1", "'s'", "function", "do", "then", "if", "until", "not", "-", ":", "#", "nil",
    "\n", "[[", "--", "elseif", "else", "for", "in", "while", "repeat", "and", "==", "~", "0x",
    "1e", "\"", "[=", "\\", "~=", "<=", "^", "x.y", "f()", "a[1]", "{}",
];

struct Case {
    origin: String,
    source: String,
    /// What the fixture's name says Redis does (accept or reject).
    intent: Option<bool>,
}

#[test]
fn parser_agrees_with_redis() {
    let started = Instant::now();
    let base = base_corpus();
    let base_count = base.len();
    let mut seen = HashSet::new();
    let mut cases = Vec::new();
    // Each script takes tokens from another one for its splices.
    let donors: Vec<String> = base.iter().map(|case| case.source.clone()).collect();
    for (index, case) in base.into_iter().enumerate() {
        let donor = &donors[(index * 7 + 3) % donors.len()];
        let mutated = mutations(&case.source, donor, index as u64);
        let origin = case.origin.clone();
        if seen.insert(case.source.clone()) {
            cases.push(case);
        }
        for (kind, source) in mutated {
            if seen.insert(source.clone()) {
                cases.push(Case {
                    origin: format!("{origin} ({kind})"),
                    source,
                    intent: None,
                });
            }
        }
    }

    let running = server::RedisServer::start();
    let target = Servers::only(server_of(&running));
    let stream = TcpStream::connect(("127.0.0.1", running.port())).expect("connect to the server");
    let mut conn = Resp::new(stream);

    let mut verdicts = Vec::new();
    let mut messages = Vec::new();
    let mut intents = Vec::new();
    let (mut accepted, mut rejected, mut out_of_scope) = (0, 0, 0);
    for batch in cases.chunks(BATCH) {
        let replies = conn.script_load_all(batch.iter().map(|case| case.source.as_str()));
        for (case, reply) in batch.iter().zip(replies) {
            let ours = check_syntax(&case.source);
            let theirs = reply.err();
            // A shebang without a newline is the parser's to report.
            let our_shebang = shebang::parse(&case.source, target)
                .err()
                .filter(|error| !error.message.starts_with("Invalid script shebang"));
            let their_shebang = theirs.as_deref().filter(|message| {
                (message.contains("shebang") && !message.contains("Invalid script shebang"))
                    || message.starts_with("Could not find scripting engine")
            });
            match (&our_shebang, their_shebang) {
                (None, None) => {}
                (Some(_), Some(_)) => {
                    out_of_scope += 1;
                    continue;
                }
                _ => {
                    verdicts.push(format!(
                        "{} (shebang)\n  script: {:?}\n  ours:   {}\n  server: {}",
                        case.origin,
                        case.source,
                        our_shebang.map_or("accepted".to_owned(), |e| e.message),
                        theirs.as_deref().unwrap_or("accepted")
                    ));
                    continue;
                }
            }
            let redis_accepts = theirs.is_none();
            if redis_accepts {
                accepted += 1;
            } else {
                rejected += 1;
            }
            if let Some(intent) = case.intent
                && intent != redis_accepts
            {
                intents.push(format!(
                    "{}: named for Redis to {} it, but Redis says: {}",
                    case.origin,
                    if intent { "accept" } else { "reject" },
                    theirs.as_deref().unwrap_or("OK")
                ));
            }
            match (&ours, &theirs) {
                (Ok(_), None) => {}
                (Err(error), Some(message)) => {
                    let ours = redis_message(&case.source, error);
                    // Lua reports a limit on the line after the token past
                    // the culprit, where our span points at the culprit.
                    let lines_matter = !error.message.contains(" has more than ");
                    let same = if lines_matter {
                        normalize(&ours) == normalize(message)
                    } else {
                        without_line(&ours) == without_line(message)
                    };
                    if !same {
                        messages.push(format!(
                            "{}\n  script: {:?}\n  ours:   {ours}\n  redis:  {message}",
                            case.origin, case.source
                        ));
                    }
                }
                _ => verdicts.push(format!(
                    "{}\n  script: {:?}\n  ours:   {}\n  redis:  {}",
                    case.origin,
                    case.source,
                    match &ours {
                        Ok(_) => "accepted".to_owned(),
                        Err(error) => format!("rejected: {}", redis_message(&case.source, error)),
                    },
                    theirs
                        .as_deref()
                        .map_or("accepted".to_owned(), |m| format!("rejected: {m}")),
                )),
            }
        }
    }
    drop(conn);
    drop(running);

    eprintln!(
        "differential: {} scripts ({base_count} in the corpus, {} mutations): \
         {accepted} accepted and {rejected} rejected by {target}, {out_of_scope} shebangs \
         refused by both; {:.2?}",
        cases.len(),
        cases.len() - base_count,
        started.elapsed(),
        target = target.names()
    );
    for (title, list) in [
        ("verdict mismatches", &verdicts),
        ("message mismatches", &messages),
        ("fixtures whose name says otherwise", &intents),
    ] {
        if !list.is_empty() {
            eprintln!("\n{} {title}:", list.len());
            for line in list {
                eprintln!("{line}\n");
            }
        }
    }
    assert!(
        verdicts.is_empty() && messages.is_empty() && intents.is_empty(),
        "{} verdict mismatches, {} message mismatches, {} mislabeled fixtures (listed above)",
        verdicts.len(),
        messages.len(),
        intents.len()
    );
}

/// The scripts before mutation.
fn base_corpus() -> Vec<Case> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    for path in lua::corpus_files(repo) {
        let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Ok(source) = String::from_utf8(bytes) else {
            continue;
        };
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let intent = if name.starts_with("ok-") {
            Some(true)
        } else if name.starts_with("err-") {
            Some(false)
        } else {
            None
        };
        let origin = path
            .strip_prefix(repo)
            .unwrap_or(&path)
            .display()
            .to_string();
        cases.push(Case {
            origin,
            source,
            intent,
        });
    }
    assert!(
        cases.len() > 100,
        "the corpus is missing: {} scripts",
        cases.len()
    );
    let mut built = |origin: &str, source: String, intent: Option<bool>| {
        cases.push(Case {
            origin: origin.to_owned(),
            source,
            intent,
        })
    };
    for src in lua::ACCEPTED {
        built("parser unit test", (*src).to_owned(), Some(true));
    }
    for (src, _) in lua::SYNTAX_ERRORS {
        built("parser unit test", (*src).to_owned(), Some(false));
    }
    for src in [
        "return 1\0x",
        "return 1\0\0",
        "return 1\0\0\0",
        "x = a .\0 b",
        "return ...\0",
        "\0",
        "x = 1 \0",
        "#!lua\0\nreturn 1",
        "#!lua\r\n\rreturn +",
        "return \"a\\0b\" x",
        "return 'a\\200b' x",
        "x = \"\\0\\1\\2\\3\" 1",
        "return [[\r\n]] +",
        "return [==[\n\r]==] x",
        "x = {f\n(1)}",
        "x = {f\n'a'}",
        "return (f\n)(1)",
        "return \u{1}",
        "return \u{7f}",
        "local a = 1 -- comment with \0 in it\nreturn a",
        // The shebang line, split as the server's sdssplitargs splits it.
        "#!lua flags=no-wri\"tes\nreturn 1",
        "#!lua 'flags=no-writes'\nreturn 1",
        "#!lua 'flags=no-writes\nreturn 1",
        "#!lua fl\"ags=no-writes\"\nreturn 1",
        "#!lua \"flags=no-writes\"x\nreturn 1",
        "#!lua \"flags=no-\\x77rites\"\nreturn 1",
        "#!lua \"flags=\\\"no-writes\"\nreturn 1",
        "#!lua 'fl\\'ags=no-writes'\nreturn 1",
        "#!lua\x0bflags=no-writes\nreturn 1",
        "#!lua \x0c flags=no-writes\nreturn 1",
        "#!lua flags=no-writes \"\"\nreturn 1",
    ] {
        built("built", src.to_owned(), None);
    }
    // The limits, on both sides.
    let names = |k: usize| {
        (0..k)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    for k in [198, 199, 200] {
        built(
            "limit",
            format!("x = {}1{}", "(".repeat(k), ")".repeat(k)),
            None,
        );
        built(
            "limit",
            format!("x = {}{}", "{".repeat(k), "}".repeat(k)),
            None,
        );
        built(
            "limit",
            format!("{}{}", "do ".repeat(k), "end ".repeat(k)),
            None,
        );
        built("limit", format!("x = {}", vec!["a"; k].join("..")), None);
        built("limit", format!("x = {}1", "- ".repeat(k)), None);
        built(
            "limit",
            format!("{}{}", "if x then ".repeat(k), "end ".repeat(k)),
            None,
        );
        built("limit", format!("{} = 1", names(k + 1)), None);
        built("limit", format!("do {} = 1 end", names(k)), None);
        built("limit", format!("local {}", names(k + 1)), None);
    }
    for k in [98, 99, 100] {
        let nested = format!("{}{}", "f(function() ".repeat(k), "end) ".repeat(k));
        built("limit", nested, None);
    }
    for k in [199, 200] {
        built(
            "limit",
            format!("function f(...)\nlocal {} end", names(k)),
            None,
        );
        built(
            "limit",
            format!("function t:m(a)\nlocal {} end", names(k - 1)),
            None,
        );
    }
    for k in [196, 197] {
        built(
            "limit",
            format!("for i = 1, 2 do local {} end", names(k)),
            None,
        );
        built(
            "limit",
            format!("for k, v in p do local {} end", names(k - 1)),
            None,
        );
    }
    cases
}

/// Deterministic mutations of `source`, each with the name of its kind;
/// splices take their tokens from `donor`.
fn mutations(source: &str, donor: &str, seed: u64) -> Vec<(&'static str, String)> {
    let tokens = token_spans(source);
    let n = tokens.len();
    let mut rng = Lcg(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = Vec::new();
    let text = |i: usize| &source[tokens[i].0..tokens[i].1];
    for i in spread(n, &mut rng) {
        let (start, end) = tokens[i];
        out.push((
            "token deleted",
            format!("{}{}", &source[..start], &source[end..]),
        ));
    }
    for i in spread(n, &mut rng) {
        out.push(("cut after a token", source[..tokens[i].1].to_owned()));
    }
    for i in spread(n.saturating_sub(1), &mut rng) {
        let ((a0, a1), (b0, b1)) = (tokens[i], tokens[i + 1]);
        out.push((
            "tokens swapped",
            format!(
                "{}{}{}{}{}",
                &source[..a0],
                text(i + 1),
                &source[a1..b0],
                text(i),
                &source[b1..]
            ),
        ));
    }
    for i in spread(n + 1, &mut rng) {
        let at = tokens.get(i).map_or(source.len(), |t| t.0);
        let insert = INSERTS[rng.below(INSERTS.len())];
        out.push((
            "token inserted",
            format!("{} {insert} {}", &source[..at], &source[at..]),
        ));
    }
    for i in spread(n, &mut rng) {
        let (start, end) = tokens[i];
        let insert = INSERTS[rng.below(INSERTS.len())];
        out.push((
            "token replaced",
            format!("{}{insert}{}", &source[..start], &source[end..]),
        ));
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    for i in spread(lines.len(), &mut rng) {
        let mut copy = lines.clone();
        copy.insert(i, lines[i]);
        let mut duplicated = copy.concat();
        if !lines[i].ends_with('\n') {
            duplicated.insert(source.len(), '\n');
        }
        out.push(("line duplicated", duplicated));
    }
    // Byte-level edits, as the analyzer's robustness test makes them (bytes
    // that stop being UTF-8 become U+FFFD, for the server as for us).
    let bytes = source.len();
    for at in spread_at_most(bytes, PER_BYTE_KIND, &mut rng) {
        let bit = rng.below(8) as u8;
        out.push((
            "bit flipped",
            Edit::FlipBit { at, bit }.apply(source, donor),
        ));
    }
    for at in spread_at_most(bytes, PER_BYTE_KIND, &mut rng) {
        let len = rng.below(3);
        out.push((
            "bytes deleted",
            Edit::Delete { at, len }.apply(source, donor),
        ));
    }
    for at in spread_at_most(bytes + 1, PER_BYTE_KIND, &mut rng) {
        let byte = INTERESTING_BYTES[rng.below(INTERESTING_BYTES.len())];
        let edit = Edit::Insert {
            at,
            bytes: vec![byte],
        };
        out.push(("byte inserted", edit.apply(source, donor)));
    }
    let donor_tokens = token_spans(donor).len().max(1);
    for at in spread_at_most(n + 1, PER_BYTE_KIND, &mut rng) {
        let donor_token = rng.below(donor_tokens);
        let edit = Edit::SpliceToken { at, donor_token };
        out.push((
            "token spliced from another script",
            edit.apply(source, donor),
        ));
    }
    for at in spread_at_most(n, PER_BYTE_KIND, &mut rng) {
        let donor_token = rng.below(donor_tokens);
        let edit = Edit::ReplaceToken { at, donor_token };
        out.push((
            "token replaced by another script's",
            edit.apply(source, donor),
        ));
    }
    out
}

/// At most `PER_KIND` of `0..n`, spread evenly from a random start.
fn spread(n: usize, rng: &mut Lcg) -> Vec<usize> {
    spread_at_most(n, PER_KIND, rng)
}

/// At most `k` of `0..n`, spread evenly from a random start.
fn spread_at_most(n: usize, k: usize, rng: &mut Lcg) -> Vec<usize> {
    if n <= k {
        return (0..n).collect();
    }
    let offset = rng.below(n);
    (0..k).map(|j| (offset + j * n / k) % n).collect()
}

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Our error as Redis words it in the reply to SCRIPT LOAD.
fn redis_message(source: &str, error: &SyntaxError) -> String {
    if error.message == "Invalid script shebang" {
        return error.message.clone();
    }
    format!(
        "Error compiling script (new function): user_script:{}: {}",
        lua_line(source, error.span.end),
        error.message
    )
}

/// Lua's line number at byte `pos`: the line the lexer is on there, with
/// `\n`, `\r`, `\r\n` and `\n\r` each ending a line. A shebang line is
/// one line, whatever it holds.
fn lua_line(source: &str, pos: usize) -> usize {
    let bytes = source.as_bytes();
    let mut i = if bytes.starts_with(b"#!") {
        bytes.iter().position(|&b| b == b'\n').unwrap_or(0)
    } else {
        0
    };
    let mut line = 1;
    while i < pos.min(bytes.len()) {
        let b = bytes[i];
        i += 1;
        if b == b'\n' || b == b'\r' {
            if i < bytes.len() && (bytes[i] == b'\n' || bytes[i] == b'\r') && bytes[i] != b {
                i += 1;
            }
            line += 1;
        }
    }
    line
}

/// The message without its `user_script:LINE:` prefix.
fn without_line(message: &str) -> String {
    let text = message
        .split_once("user_script:")
        .map_or(message, |(_, rest)| rest);
    normalize(text.split_once(": ").map_or(text, |(_, rest)| rest))
}

/// As a reply line holds a message: Redis turns newlines into spaces; and
/// Lua quotes only the first byte of a non-ASCII character where we quote
/// the character, so any non-ASCII character counts the same.
fn normalize(message: &str) -> String {
    message
        .chars()
        .map(|c| match c {
            '\r' | '\n' => ' ',
            c if !c.is_ascii() => '?',
            c => c,
        })
        .collect()
}
