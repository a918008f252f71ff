//! The analyzer on arbitrary input: it never panics and never hangs, as a
//! proc macro that runs it on every build must not.
//!
//! Each input goes through everything the macro does with a script
//! ([`analyze`] under several declarations, the first findings rendered
//! with [`report::render`]) and through [`check_syntax`], on a thread of its
//! own with a 2 MiB stack (what a spawned Rust thread gets; the macro gives
//! the analysis more) and a deadline far beyond any real script's analysis
//! ([`DEADLINE`]): an input still running then is reported, rather than
//! hanging the test. The inputs, from a fixed seed and a fixed number of
//! cases (see [`config`]):
//!
//! - arbitrary bytes, as they are (a script need not be UTF-8), and as
//!   text (invalid UTF-8 becomes U+FFFD, as a macro's script is text);
//! - token soup: Lua tokens and pieces of tokens in any order;
//! - the repository's real scripts (`scripts/`, `tests/lua/`,
//!   `tests/ui/lua/`, the differential test's corpus) with a few edits
//!   ([`Edit`]: bits flipped, bytes deleted or inserted, tokens of another
//!   script spliced in or substituted);
//! - huge and deeply nested scripts, built here.
//!
//! No server is needed; whether the analyzer's verdicts equal a server's is
//! the differential test's question (`tests/integration/analyzer/`).

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, RngSeed, TestCaseError};
use redis_script_analyzer::servers::{Server, Servers};
use redis_script_analyzer::{Declared, ReplyKind, analyze, check_syntax, report};
use redis_script_test_support::lua::{self, Edit, INTERESTING_BYTES};

/// How long one input may take, in a debug build, on a shared machine.
/// Real scripts take about a millisecond; the largest inputs here (256 KiB)
/// a fraction of a second.
const DEADLINE: Duration = Duration::from_secs(20);

/// The stack of the thread that analyzes an input: what a spawned Rust
/// thread gets by default, far less than the macro gives the analysis
/// (`redis-script-macros/src/check/script.rs`), so that a recursion as
/// deep as the input is long shows here.
const STACK: usize = 2 << 20;

/// Findings rendered per analysis, at most: as many as the macro shows.
const SHOWN: usize = 20;

/// Cases of each property per run, from [`SEED`].
const CASES: u32 = 1_000;
const SEED: u64 = 0x5eed_0010;

/// Set once an input hung: from then on every case passes at once, so
/// that proptest reports the input that hung as found instead of shrinking
/// it (each attempt would wait out the deadline, and leave a thread behind).
static HUNG: AtomicBool = AtomicBool::new(false);

/// `cases` cases from [`SEED`]; `PROPTEST_CASES` and `PROPTEST_RNG_SEED`
/// override both, for a longer or a different search by hand.
fn config(cases: u32) -> Config {
    let from_env = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            from_env.cases
        } else {
            cases
        },
        rng_seed: match from_env.rng_seed {
            RngSeed::Random => RngSeed::Fixed(SEED),
            seed => seed,
        },
        failure_persistence: None,
        ..from_env
    }
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn any_bytes(bytes in vec(any::<u8>(), 0..400)) {
        survives("bytes", &bytes)?;
        survives("bytes as text", String::from_utf8_lossy(&bytes).as_bytes())?;
    }

    #[test]
    fn any_token_soup(source in token_soup()) {
        survives("token soup", source.as_bytes())?;
    }

    #[test]
    fn real_scripts_edited(
        script in any::<Index>(),
        donor in any::<Index>(),
        edits in vec(edit(), 1..5),
    ) {
        let mut source = script.get(&CORPUS).clone();
        let donor = donor.get(&CORPUS);
        for edit in &edits {
            source = edit.apply(&source, donor);
        }
        survives("an edited script", source.as_bytes())?;
    }
}

#[test]
fn huge_and_deeply_nested_scripts() {
    // Far beyond what a 2 MiB stack takes in recursion (a few thousand
    // levels in a debug build), and beyond Lua's 200 levels of nesting.
    const N: usize = 20_000;
    const BIG: usize = 256 << 10;
    let repeat = |piece: &str, n: usize| piece.repeat(n);
    let joined = |piece: &str, separator: &str| vec![piece; N].join(separator);
    let cases: Vec<(&str, String)> = vec![
        ("a 256 KiB name", format!("x = {}", repeat("a", BIG))),
        ("a 256 KiB string", format!("return '{}'", repeat("a", BIG))),
        (
            "a 256 KiB long comment",
            format!("--[[{}]] return 1", repeat("x\n", BIG / 2)),
        ),
        (
            "an unfinished 256 KiB long string",
            format!("x = [==[{}", repeat("]=]", BIG / 4)),
        ),
        ("a 256 KiB number", format!("return {}", repeat("9", BIG))),
        (
            "a 256 KiB hex number",
            format!("return 0x{}", repeat("f", BIG)),
        ),
        (
            "an exponent of 256 KiB",
            format!("return 1e{}", repeat("9", BIG)),
        ),
        (
            "escapes",
            format!("return \"{}\"", repeat("\\255\\n\\\\", N)),
        ),
        (
            "a long-bracket level of 20,000",
            format!("return [{}[x]{}]", repeat("=", N), repeat("=", N)),
        ),
        ("newlines", repeat("\r\n\n\r", N)),
        ("statements", repeat("x = 1\n", N)),
        (
            "calls of KEYS",
            repeat("redis.call('SET', KEYS[1], ARGV[1])\n", N / 10),
        ),
        ("a sum", format!("return {}", joined("a", " + "))),
        (
            "a comparison chain",
            format!("return {}", joined("a", " == ")),
        ),
        (
            "an and/or chain",
            format!("return {}", joined("a", " and a or ")),
        ),
        ("a concatenation", format!("return {}", joined("a", " .. "))),
        ("a power tower", format!("return {}", joined("2", " ^ "))),
        ("unary minus", format!("return {}1", repeat("- ", N))),
        ("unary not", format!("return {}x", repeat("not ", N))),
        ("lengths", format!("return {}t", repeat("#", N))),
        ("fields", format!("return a{}", repeat(".b", N))),
        ("methods", format!("a{}", repeat(":m()", N))),
        ("calls", format!("f{}", repeat("()", N))),
        ("indexes", format!("return a{}", repeat("[1]", N))),
        (
            "nested indexes",
            format!("return {}1{}", repeat("a[", N), repeat("]", N)),
        ),
        ("a table", format!("return {{{}}}", joined("1", ","))),
        (
            "a table of pairs",
            format!("return {{{}}}", joined("[KEYS[1]] = ARGV[1]", ";")),
        ),
        ("return values", format!("return {}", joined("1", ","))),
        ("arguments", format!("f({})", joined("x", ","))),
        ("targets", format!("{} = 1", joined("a", ","))),
        ("locals", format!("local {}", joined("a", ","))),
        (
            "elseifs",
            format!("if x then {}end", repeat("elseif x then ", N)),
        ),
        (
            "parentheses",
            format!("return {}1{}", repeat("(", N), repeat(")", N)),
        ),
        ("unclosed parentheses", format!("return {}", repeat("(", N))),
        (
            "braces",
            format!("return {}{}", repeat("{", N), repeat("}", N)),
        ),
        (
            "blocks",
            format!("{}{}", repeat("do ", N), repeat("end ", N)),
        ),
        (
            "loops",
            format!("{}{}", repeat("while 1 do ", N), repeat("end ", N)),
        ),
        (
            "functions",
            format!("{}{}", repeat("f(function() ", N), repeat("end) ", N)),
        ),
        (
            "repeats",
            format!("{}{}", repeat("repeat ", N), repeat("until x ", N)),
        ),
        ("semicolons", format!("x = 1{}", repeat(";", N))),
        (
            "shebang flags",
            format!("#!lua flags={}\nreturn 1", joined("no-writes", ",")),
        ),
        (
            "a shebang without a newline",
            format!("#!lua {}", repeat("x", N)),
        ),
    ];
    for (name, source) in &cases {
        if let Err(error) = survives(name, source.as_bytes()) {
            panic!("{name} ({} bytes): {error}", source.len());
        }
    }
}

/// Runs everything the analyzer offers on `source` on a thread of its own,
/// and fails the case, quoting the input, on a panic or past [`DEADLINE`].
/// The thread is named after `what` the input is, which is all a stack
/// overflow (it aborts the process) leaves to read.
fn survives(what: &str, source: &[u8]) -> Result<(), TestCaseError> {
    if HUNG.load(Ordering::SeqCst) {
        return Ok(());
    }
    let (done, outcome) = mpsc::channel();
    let input = source.to_owned();
    thread::Builder::new()
        .name(format!("analyze {what}"))
        .stack_size(STACK)
        .spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(|| analyze_everything(&input)));
            let _ = done.send(result.map_err(|panic| {
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            }));
        })
        .expect("spawn a thread");
    let quoted = quote(source);
    match outcome.recv_timeout(DEADLINE) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(message)) => Err(TestCaseError::fail(format!(
            "the analyzer panicked ({message}) on {quoted}"
        ))),
        Err(RecvTimeoutError::Timeout) => {
            HUNG.store(true, Ordering::SeqCst);
            Err(TestCaseError::fail(format!(
                "the analyzer was still running after {DEADLINE:?} on {quoted}"
            )))
        }
        Err(RecvTimeoutError::Disconnected) => Err(TestCaseError::fail(format!(
            "the analyzer's thread died on {quoted}"
        ))),
    }
}

fn analyze_everything(source: &[u8]) {
    let _ = check_syntax(source);
    for declared in declarations() {
        let diagnostics = analyze(source, declared).diagnostics;
        for diagnostic in diagnostics.into_iter().take(SHOWN) {
            let shown = report::render(
                "input.lua",
                source,
                diagnostic.span,
                &diagnostic.message,
                diagnostic.note.as_deref(),
            );
            assert!(shown.contains("input.lua:"), "{shown}");
        }
    }
}

/// Declarations that between them switch on every check.
fn declarations() -> [Declared; 3] {
    [
        Declared::default(),
        Declared::default()
            .keys(1)
            .args(2)
            .reply(ReplyKind::NonNull)
            .servers(Servers::only(Server::Redis7_0)),
        Declared::default()
            .keys(2)
            .variadic(true)
            .reply(ReplyKind::Bool)
            .servers(Servers::only(Server::Valkey8_1)),
    ]
}

/// The input as a Rust byte string literal, shortened if long.
fn quote(source: &[u8]) -> String {
    const SHOWN: usize = 2_000;
    let shown = &source[..source.len().min(SHOWN)];
    let more = if source.len() > SHOWN {
        format!("... ({} bytes)", source.len())
    } else {
        String::new()
    };
    format!("b\"{}\"{more}", shown.escape_ascii())
}

// --- inputs ------------------------------------------------------------------

/// The repository's scripts, and the parser's own test scripts.
static CORPUS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut scripts = lua::corpus_files(&repo);
    scripts.sort();
    let mut corpus: Vec<String> = scripts
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    // The packaged crate has no repository around it: the built-in scripts remain.
    corpus.extend(lua::ACCEPTED.iter().map(|s| (*s).to_owned()));
    corpus.extend(lua::SYNTAX_ERRORS.iter().map(|(s, _)| (*s).to_owned()));
    corpus
});

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![select(INTERESTING_BYTES), any::<u8>()];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, bit)| Edit::FlipBit { at, bit }),
        (any::<usize>(), 0..8usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<usize>(), vec(byte, 1..4)).prop_map(|(at, bytes)| Edit::Insert { at, bytes }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(at, donor_token)| Edit::SpliceToken { at, donor_token }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(at, donor_token)| Edit::ReplaceToken { at, donor_token }),
    ]
}

/// Lua's tokens, and pieces that start one and leave it open.
const PIECES: &[&str] = &[
    "and",
    "break",
    "do",
    "else",
    "elseif",
    "end",
    "false",
    "for",
    "function",
    "if",
    "in",
    "local",
    "nil",
    "not",
    "or",
    "repeat",
    "return",
    "then",
    "true",
    "until",
    "while",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "#",
    "==",
    "~=",
    "<=",
    ">=",
    "<",
    ">",
    "=",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ":",
    ",",
    ".",
    "..",
    "...",
    "x",
    "y",
    "_",
    "KEYS",
    "ARGV",
    "KEYS[1]",
    "ARGV[2]",
    "redis",
    "redis.call",
    "redis.pcall",
    "server.call",
    "'GET'",
    "'SET'",
    "'EVAL'",
    "\"DEL\"",
    "cjson.decode",
    "tonumber",
    "unpack",
    "os.clock",
    "0",
    "1",
    "3.5",
    "0x1p4",
    "1e",
    "0x",
    "'s",
    "\"s",
    "'\\",
    "[[",
    "]]",
    "[==[",
    "]==]",
    "--",
    "--[[",
    "--[=[",
    "\n",
    "\r",
    "\0",
    "é",
    "#!lua",
    "#!lua flags=no-writes\n",
    "flags=",
    "@",
    "$",
    "!",
    "`",
    "&",
    "|",
    "~",
    "//",
    "::",
    "goto",
    "<const>",
];

fn token_soup() -> impl Strategy<Value = String> {
    vec((select(PIECES), select(&[" ", "", "\n", "\t"][..])), 0..80).prop_map(|pieces| {
        pieces
            .into_iter()
            .flat_map(|(piece, space)| [piece, space])
            .collect()
    })
}
