//! Lua for the tests that mutate and compare scripts (the analyzer's
//! robustness test, the differential test against a server): the
//! repository's scripts, cases the parser's verdicts are known for, and
//! the edits a mutation makes.

use std::path::{Path, PathBuf};

/// The byte ranges of the tokens the analyzer's lexer reads, up to the end
/// or its first error: where an edit cuts, swaps and replaces.
pub fn token_spans(source: &str) -> Vec<(usize, usize)> {
    redis_script_analyzer::tokens(source)
        .into_iter()
        .map(|span| (span.start, span.end))
        .collect()
}

/// One edit of a script, as the tests that mutate scripts make them (the
/// analyzer's robustness test, the differential test against a server).
/// Positions are taken modulo what they index, so any number makes a valid
/// edit, and a property test can shrink them toward 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Flips bit `bit % 8` of the byte at `at`.
    FlipBit {
        /// The byte.
        at: usize,
        /// The bit.
        bit: u8,
    },
    /// Deletes `len % 8 + 1` bytes from `at` (fewer at the end).
    Delete {
        /// The first byte deleted.
        at: usize,
        /// How many, less one.
        len: usize,
    },
    /// Inserts `bytes` before the byte at `at` (`at` may be the end).
    Insert {
        /// Where.
        at: usize,
        /// What.
        bytes: Vec<u8>,
    },
    /// Inserts a token of the donor script before the `at`-th token (or at
    /// the end), with a space on each side.
    SpliceToken {
        /// Where, as a token index.
        at: usize,
        /// Which token of the donor.
        donor_token: usize,
    },
    /// Replaces the `at`-th token with a token of the donor script.
    ReplaceToken {
        /// Which token.
        at: usize,
        /// Which token of the donor.
        donor_token: usize,
    },
}

/// Bytes worth inserting: each starts, ends or changes a Lua token, or is
/// one the lexer treats specially (NUL, CR, a UTF-8 lead byte).
pub const INTERESTING_BYTES: &[u8] = b"\0\r\n\t \"'[]=-\\.e0x#!~;:,(){}<>^%+*/\xc3\x80\xff";

impl Edit {
    /// `source` with this edit, tokens taken from `donor` where it needs
    /// one. Bytes that are no longer UTF-8 become U+FFFD, so that the
    /// result is text for every caller (a script sent with `redis-rs`, a
    /// macro's script).
    pub fn apply(&self, source: &str, donor: &str) -> String {
        let bytes = source.as_bytes();
        let mut out = bytes.to_vec();
        let donor_text = |index: usize| -> &[u8] {
            let spans = token_spans(donor);
            match spans.get(index % spans.len().max(1)) {
                Some(&(start, end)) => &donor.as_bytes()[start..end],
                None => b"x",
            }
        };
        match self {
            Edit::FlipBit { at, bit } => {
                if !out.is_empty() {
                    let at = at % out.len();
                    out[at] ^= 1 << (bit % 8);
                }
            }
            Edit::Delete { at, len } => {
                if !out.is_empty() {
                    let at = at % out.len();
                    let end = (at + len % 8 + 1).min(out.len());
                    out.drain(at..end);
                }
            }
            Edit::Insert { at, bytes } => {
                let at = at % (out.len() + 1);
                out.splice(at..at, bytes.iter().copied());
            }
            Edit::SpliceToken { at, donor_token } => {
                let spans = token_spans(source);
                let at = spans
                    .get(at % (spans.len() + 1))
                    .map_or(bytes.len(), |span| span.0);
                let mut text = vec![b' '];
                text.extend_from_slice(donor_text(*donor_token));
                text.push(b' ');
                out.splice(at..at, text);
            }
            Edit::ReplaceToken { at, donor_token } => {
                let spans = token_spans(source);
                if let Some(&(start, end)) = spans.get(at % spans.len().max(1)) {
                    out.splice(start..end, donor_text(*donor_token).iter().copied());
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Scripts Lua accepts; the differential test checks them with Redis too.
pub const ACCEPTED: &[&str] = &[
    "",
    "return",
    "return;",
    "return 1;",
    "return ...",
    "local t = {...}",
    "while true do break; end",
    "for i = 1, 2 do if i then break end end",
    "repeat break until true",
    "repeat return until x",
    "function f(...) return ... end",
    "x = {f\n(1)}",
    "f\n'x'",
    "f\n{}",
    "a.b.c = 1",
    "a[b][c] = 1",
    "a().b = 1",
    "(a).b = 1",
    "#!lua\nreturn 1",
    "#!lua\n",
    "return 1\0",
    "x = a .\0 b",
    "return 0x1p4",
    "local a = [[ x [[ y ]]",
    "return \"\\z\"",
    "x = 08",
    "local function f() return function() end end",
    "do local a; do local a end end",
];

/// Scripts Lua rejects, and its message; the differential test checks
/// them with Redis too.
pub const SYNTAX_ERRORS: &[(&str, &str)] = &[
    ("x", "'=' expected near '<eof>'"),
    ("x y", "'=' expected near 'y'"),
    ("local x = = 1", "unexpected symbol near '='"),
    ("x = 1 +", "unexpected symbol near '<eof>'"),
    ("x = a..", "unexpected symbol near '<eof>'"),
    ("return ..", "unexpected symbol near '..'"),
    ("if x then", "'end' expected near '<eof>'"),
    (
        "if x then\n",
        "'end' expected (to close 'if' at line 1) near '<eof>'",
    ),
    (
        "\nif x then\n y = 1",
        "'end' expected (to close 'if' at line 2) near '<eof>'",
    ),
    (
        "if x then y = 1 else z = 1 elseif",
        "'end' expected near 'elseif'",
    ),
    ("if x y", "'then' expected near 'y'"),
    ("while x y", "'do' expected near 'y'"),
    ("while x do\nend end", "'<eof>' expected near 'end'"),
    (
        "repeat\n x = 1",
        "'until' expected (to close 'repeat' at line 1) near '<eof>'",
    ),
    ("do x = 1", "'end' expected near '<eof>'"),
    (
        "function f()\n",
        "'end' expected (to close 'function' at line 1) near '<eof>'",
    ),
    (
        "local function\nf()\n",
        "'end' expected (to close 'function' at line 2) near '<eof>'",
    ),
    (
        "x = function\n()\n",
        "'end' expected (to close 'function' at line 2) near '<eof>'",
    ),
    ("for i = 1 do end", "',' expected near 'do'"),
    ("for a b", "'=' or 'in' expected near 'b'"),
    ("for a, b = 1, 2 do end", "'in' expected near '='"),
    ("for 1 = 1, 2 do end", "'<name>' expected near '1'"),
    ("for i = 1, 2\nx = 1", "'do' expected near 'x'"),
    (
        "for i = 1, 2 do\n",
        "'end' expected (to close 'for' at line 1) near '<eof>'",
    ),
    ("return return", "unexpected symbol near 'return'"),
    ("return 1; x = 2", "'<eof>' expected near 'x'"),
    ("return 1 x = 2", "'<eof>' expected near 'x'"),
    ("if x then return 1 x = 2 end", "'end' expected near 'x'"),
    ("repeat return 1 x = 1 until x", "'until' expected near 'x'"),
    ("while 1 do break x = 1 end", "'end' expected near 'x'"),
    ("break", "no loop to break near '<eof>'"),
    ("x = 1 break", "no loop to break near '<eof>'"),
    (
        "while 1 do local f = function() break end end",
        "no loop to break near 'end'",
    ),
    (
        "function f() return ... end",
        "cannot use '...' outside a vararg function near '...'",
    ),
    (
        "function f(...) return function() return ... end end",
        "cannot use '...' outside a vararg function near '...'",
    ),
    ("function f(a, b c) end", "')' expected near 'c'"),
    ("function f(a, 1) end", "<name> or '...' expected near '1'"),
    ("function f(..., a) end", "')' expected near ','"),
    ("function f.a:b.c() end", "'(' expected near '.'"),
    ("function 1() end", "'<name>' expected near '1'"),
    ("local function a.b() end", "'(' expected near '.'"),
    ("local 1", "'<name>' expected near '1'"),
    ("local x, = 1", "'<name>' expected near '='"),
    ("a, f() = 1", "syntax error near '='"),
    ("(a) = 1", "syntax error near '='"),
    ("a, (b) = 1, 2", "syntax error near '='"),
    ("(f())", "syntax error near '<eof>'"),
    ("f() = 1", "unexpected symbol near '='"),
    ("a.b", "'=' expected near '<eof>'"),
    ("x = {x y}", "'}' expected near 'y'"),
    (
        "x = {\n1 2}",
        "'}' expected (to close '{' at line 1) near '2'",
    ),
    ("x = {[1] 2}", "'=' expected near '2'"),
    ("x = {[1 = 2}", "']' expected near '='"),
    ("x = {,}", "unexpected symbol near ','"),
    ("x = {1,,}", "unexpected symbol near ','"),
    ("f(1,)", "unexpected symbol near ')'"),
    ("f(1", "')' expected near '<eof>'"),
    (
        "f(1\n",
        "')' expected (to close '(' at line 1) near '<eof>'",
    ),
    ("x = (1", "')' expected near '<eof>'"),
    ("x = a[1", "']' expected near '<eof>'"),
    ("x = a.1", "unexpected symbol near '.1'"),
    ("x = a.", "'<name>' expected near '<eof>'"),
    (
        "x = f\n(1)",
        "ambiguous syntax (function call x new statement) near '('",
    ),
    ("f:m", "function arguments expected near '<eof>'"),
    ("f.a:b.c()", "function arguments expected near '.'"),
    ("x = function() end()", "unexpected symbol near ')'"),
    ("x = 1 ~ 2", "unexpected symbol near '~'"),
    ("x = a // b", "unexpected symbol near '/'"),
    ("goto x", "'=' expected near 'x'"),
    ("::x::", "unexpected symbol near ':'"),
    ("local a <const> = 1", "unexpected symbol near '<'"),
    ("x = a & b", "unexpected symbol near '&'"),
    ("x = 'a' 'b'", "unexpected symbol near ''b''"),
    ("\"a\\0b\" x", "unexpected symbol near '\"a'"),
    (
        "x = [[a\nb]] [=[c\r\nd]=]",
        "unexpected symbol near '[=[c\nd]=]'",
    ),
    ("x = 1 2", "unexpected symbol near '2'"),
    ("x = 1e5 .5", "unexpected symbol near '.5'"),
    (";", "unexpected symbol near ';'"),
    (";;", "unexpected symbol near ';'"),
    ("x = 1;;", "unexpected symbol near ';'"),
    ("return \u{1b}", "unexpected symbol near 'char(27)'"),
    ("\0", "unexpected symbol"),
    ("x = 1 \0", "unexpected symbol"),
    ("return 1\0\0\0", "'<eof>' expected"),
    ("x = é", "unexpected symbol near 'é'"),
    ("x = 3x", "malformed number near '3x'"),
    ("x = \"abc", "unfinished string near '<eof>'"),
    ("#!lua", "Invalid script shebang"),
    ("#!lua\n\nreturn +", "unexpected symbol near '+'"),
];

/// The repository's folders of Lua scripts that the corpus tests read,
/// relative to its root.
const CORPUS_DIRS: &[&str] = &[
    "scripts",
    "tests/lua",
    "tests/ui/lua",
    "tests/integration/analyzer/lua-corpus",
];

/// Every `.lua` file below the corpus folders of the repository at `repo`:
/// folder by folder, each folder's files sorted. A missing folder (as in
/// the packaged crate, which has no repository around it) gives none.
pub fn corpus_files(repo: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in CORPUS_DIRS {
        let mut files = Vec::new();
        lua_files(&repo.join(dir), &mut files);
        files.sort();
        all.extend(files);
    }
    all
}

/// Every `.lua` file below `dir`, into `out` (none when it is missing).
pub fn lua_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            lua_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "lua") {
            out.push(path);
        }
    }
}
