//! The Lua 5.1 lexer, token for token as Redis 7 compiles a script (Lua
//! 5.1.5's `llex.c`, as Redis builds it: no `LUA_COMPAT_LSTR`, so `[[`
//! inside a long string is plain text; C locale, so letters are ASCII and
//! numbers are converted by glibc's `strtod`, hexadecimal floats included).
//!
//! Tokens are read one at a time, on demand, like Lua does: a script whose
//! first error is a syntax error gets that error, even if a malformed token
//! follows it.
//!
//! The source is bytes, as the server reads it: strings and comments may
//! hold any byte; anywhere else a non-ASCII byte is a token of its own.
//! Positions are byte offsets into the whole source, shebang line included;
//! line numbers count newlines as Lua does (`\n`, `\r`, `\r\n` and `\n\r`
//! each end one line).

use std::borrow::Cow;

use crate::syntax::tree::Span;

/// Text the lexer cannot read as a token, in Lua's words; the parser turns
/// it into its [`SyntaxError`](crate::SyntaxError).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// Lua's message, e.g. `malformed number near '3x'`.
    pub message: String,
    /// The text that could not be read.
    pub span: Span,
}

impl LexError {
    /// `message`, with Lua's ` near '<token>'` when there is a token to quote.
    pub fn new(message: &str, near: Option<String>, span: Span) -> LexError {
        LexError {
            message: with_near(message, near),
            span,
        }
    }
}

/// Lua's way of quoting the token where an error is: `message near 'token'`.
pub fn with_near(message: &str, near: Option<String>) -> String {
    match near {
        Some(near) => format!("{message} near '{near}'"),
        None => message.to_owned(),
    }
}

/// What a token is. Names, strings and numbers carry their text or value in
/// [`Token`]; every other token is its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    And,
    Break,
    Do,
    Else,
    Elseif,
    End,
    False,
    For,
    Function,
    If,
    In,
    Local,
    Nil,
    Not,
    Or,
    Repeat,
    Return,
    Then,
    True,
    Until,
    While,
    /// `..`
    Concat,
    /// `...`
    Dots,
    /// `==`
    Eq,
    /// `>=`
    Ge,
    /// `<=`
    Le,
    /// `~=`
    Ne,
    Number,
    Name,
    String,
    Eof,
    /// Any other character, as a token of its own: `+`, `(`, `=`, but also
    /// `~` alone, `@`, or a non-ASCII character (which Lua sees byte by
    /// byte: its first byte is the token), U+FFFD for a byte that starts
    /// no UTF-8 character.
    Char(char),
}

impl TokenKind {
    /// How Lua names the token in messages (`luaX_token2str`): reserved words
    /// and operators as written, `<eof>`, `<name>`, `char(27)` for a control
    /// character.
    pub fn describe(self) -> String {
        let text = match self {
            TokenKind::And => "and",
            TokenKind::Break => "break",
            TokenKind::Do => "do",
            TokenKind::Else => "else",
            TokenKind::Elseif => "elseif",
            TokenKind::End => "end",
            TokenKind::False => "false",
            TokenKind::For => "for",
            TokenKind::Function => "function",
            TokenKind::If => "if",
            TokenKind::In => "in",
            TokenKind::Local => "local",
            TokenKind::Nil => "nil",
            TokenKind::Not => "not",
            TokenKind::Or => "or",
            TokenKind::Repeat => "repeat",
            TokenKind::Return => "return",
            TokenKind::Then => "then",
            TokenKind::True => "true",
            TokenKind::Until => "until",
            TokenKind::While => "while",
            TokenKind::Concat => "..",
            TokenKind::Dots => "...",
            TokenKind::Eq => "==",
            TokenKind::Ge => ">=",
            TokenKind::Le => "<=",
            TokenKind::Ne => "~=",
            TokenKind::Number => "<number>",
            TokenKind::Name => "<name>",
            TokenKind::String => "<string>",
            TokenKind::Eof => "<eof>",
            TokenKind::Char(c) if c.is_ascii_control() => return format!("char({})", c as u32),
            TokenKind::Char(c) => return c.to_string(),
        };
        text.to_owned()
    }
}

/// One token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    /// The token's bytes in the source (for a string: quotes or brackets
    /// included; for `<eof>`: empty, at the end of the source).
    pub span: Span,
    /// The value of a `Number`.
    pub number: f64,
    /// The value of a `String`, its escapes resolved.
    pub string: Vec<u8>,
}

/// Reads a script's tokens one by one.
pub struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Lua's `linenumber`: the line the lexer is on, so after reading a
    /// token, the line on which that token ends.
    line: usize,
    /// The line comments (`--` to the end of the line, not `--[[ ]]`)
    /// read so far.
    line_comments: Vec<Span>,
    /// The long comments (`--[[ ]]`) read so far.
    long_comments: Vec<Span>,
}

impl<'a> Lexer<'a> {
    /// Starts at the beginning of `src`, after its shebang line if it has one:
    /// Redis 7 cuts a first line starting with `#!` before the newline, and
    /// gives Lua the rest (newline included, so line numbers still count it).
    /// A `#!` line with no newline (before any NUL byte, as Redis looks for
    /// it with `strchr`) is "Invalid script shebang".
    pub fn new(bytes: &'a [u8]) -> Result<Lexer<'a>, LexError> {
        let mut pos = 0;
        if bytes.starts_with(b"#!") {
            match bytes.iter().position(|&b| b == b'\n' || b == 0) {
                Some(newline) if bytes[newline] == b'\n' => pos = newline,
                stop => {
                    let end = stop.unwrap_or(bytes.len());
                    return Err(LexError::new(
                        "Invalid script shebang",
                        None,
                        Span::new(0, end),
                    ));
                }
            }
        }
        Ok(Lexer {
            bytes,
            pos,
            line: 1,
            line_comments: Vec::new(),
            long_comments: Vec::new(),
        })
    }

    /// The line comments of `src`, `--` included, up to the first text the
    /// lexer cannot read: comments as Lua sees them, so `--` in a string or
    /// a long comment `--[[ ]]` is none.
    pub fn line_comments(src: &'a [u8]) -> Vec<Span> {
        let Ok(mut lexer) = Lexer::new(src) else {
            return Vec::new();
        };
        while let Ok(token) = lexer.next_token() {
            if token.kind == TokenKind::Eof {
                break;
            }
        }
        lexer.line_comments
    }

    /// The spans of the tokens of `src`, up to the end or the first text
    /// the lexer cannot read.
    pub fn token_spans(src: &'a [u8]) -> Vec<Span> {
        let Ok(mut lexer) = Lexer::new(src) else {
            return Vec::new();
        };
        let mut spans = Vec::new();
        while let Ok(token) = lexer.next_token() {
            if token.kind == TokenKind::Eof {
                break;
            }
            spans.push(token.span);
        }
        spans
    }

    /// The strings and long comments of `src` that run over more than one
    /// line, in order, up to the first text the lexer cannot read: a line
    /// that starts inside one is their text, not a line of code.
    pub fn multiline_spans(src: &'a [u8]) -> Vec<Span> {
        let Ok(mut lexer) = Lexer::new(src) else {
            return Vec::new();
        };
        let mut spans = Vec::new();
        while let Ok(token) = lexer.next_token() {
            match token.kind {
                TokenKind::Eof => break,
                TokenKind::String => spans.push(token.span),
                _ => {}
            }
        }
        spans.append(&mut lexer.long_comments);
        spans.retain(|span| {
            src[span.start..span.end]
                .iter()
                .any(|&byte| byte == b'\n' || byte == b'\r')
        });
        spans.sort_by_key(|span| span.start);
        spans
    }

    /// Lua's current line number: the line on which the last token read ends.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Lua's `txtToken`: how an error message quotes `token` after "near".
    /// Names and numbers as written, strings as read (delimiters, resolved
    /// escapes; cut at a NUL byte, as C would), other tokens by name.
    /// `None` for a NUL character, which Lua takes for "no token".
    pub fn near(&self, token: &Token) -> Option<String> {
        match token.kind {
            TokenKind::Name | TokenKind::Number => Some(cut_at_nul(&self.text(token.span))),
            TokenKind::String => {
                let Span { start, end } = token.span;
                let open = self.bytes[start];
                let mut text = Vec::with_capacity(token.string.len() + 4);
                if open == b'[' {
                    let level = self.bytes[start + 1..]
                        .iter()
                        .take_while(|&&b| b == b'=')
                        .count();
                    text.extend_from_slice(&self.bytes[start..start + level + 2]);
                    text.extend_from_slice(&token.string);
                    text.extend_from_slice(&self.bytes[end - level - 2..end]);
                } else {
                    text.push(open);
                    text.extend_from_slice(&token.string);
                    text.push(open);
                }
                Some(quote_bytes(&text))
            }
            TokenKind::Char('\0') => None,
            kind => Some(kind.describe()),
        }
    }

    /// The text of `span`: names, numerals and brackets, which are ASCII.
    pub fn text(&self, span: Span) -> Cow<'a, str> {
        String::from_utf8_lossy(&self.bytes[span.start..span.end])
    }

    fn cur(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            span: Span::new(start, self.pos),
            number: 0.0,
            string: Vec::new(),
        }
    }

    fn error(&self, message: &str, near: Option<String>, start: usize) -> LexError {
        LexError::new(message, near, Span::new(start, self.pos))
    }

    /// Lua's `inclinenumber`: skips `\n`, `\r`, `\r\n` or `\n\r`, one line.
    fn newline(&mut self) {
        let first = self.bytes[self.pos];
        self.pos += 1;
        if let Some(next @ (b'\n' | b'\r')) = self.cur()
            && next != first
        {
            self.pos += 1;
        }
        self.line += 1;
    }

    /// Lua's `skip_sep`, at a `[` or `]`: skips it and the `=`s after it.
    /// Returns the level (the number of `=`) when the same bracket follows,
    /// else `-level - 1`.
    fn skip_sep(&mut self) -> isize {
        let bracket = self.bytes[self.pos];
        self.pos += 1;
        let mut count = 0;
        while self.cur() == Some(b'=') {
            self.pos += 1;
            count += 1;
        }
        if self.cur() == Some(bracket) {
            count
        } else {
            -count - 1
        }
    }

    /// The next token; `Eof` at the end, again and again.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        loop {
            let start = self.pos;
            let Some(c) = self.cur() else {
                return Ok(self.token(TokenKind::Eof, start));
            };
            match c {
                b'\n' | b'\r' => self.newline(),
                b'-' => {
                    self.pos += 1;
                    if self.cur() != Some(b'-') {
                        return Ok(self.token(TokenKind::Char('-'), start));
                    }
                    self.pos += 1;
                    if self.cur() == Some(b'[') {
                        let sep = self.skip_sep();
                        if sep >= 0 {
                            self.long_string(start, sep as usize, None)?;
                            self.long_comments.push(Span::new(start, self.pos));
                            continue;
                        }
                    }
                    while let Some(c) = self.cur() {
                        if c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.pos += 1;
                    }
                    self.line_comments.push(Span::new(start, self.pos));
                }
                b'[' => {
                    let sep = self.skip_sep();
                    if sep >= 0 {
                        let mut value = Vec::new();
                        self.long_string(start, sep as usize, Some(&mut value))?;
                        let mut token = self.token(TokenKind::String, start);
                        token.string = value;
                        return Ok(token);
                    } else if sep == -1 {
                        return Ok(self.token(TokenKind::Char('['), start));
                    } else {
                        let near = self.text(Span::new(start, self.pos)).into_owned();
                        return Err(self.error("invalid long string delimiter", Some(near), start));
                    }
                }
                b'=' | b'<' | b'>' | b'~' => {
                    self.pos += 1;
                    if self.cur() != Some(b'=') {
                        return Ok(self.token(TokenKind::Char(c as char), start));
                    }
                    self.pos += 1;
                    let kind = match c {
                        b'=' => TokenKind::Eq,
                        b'<' => TokenKind::Le,
                        b'>' => TokenKind::Ge,
                        _ => TokenKind::Ne,
                    };
                    return Ok(self.token(kind, start));
                }
                b'"' | b'\'' => return self.short_string(start, c),
                b'.' => {
                    self.pos += 1;
                    // Lua's `check_next(ls, ".")` uses `strchr`, which also
                    // finds the string's terminating NUL: a NUL byte passes for a dot.
                    if let Some(b'.' | 0) = self.cur() {
                        self.pos += 1;
                        if let Some(b'.' | 0) = self.cur() {
                            self.pos += 1;
                            return Ok(self.token(TokenKind::Dots, start));
                        }
                        return Ok(self.token(TokenKind::Concat, start));
                    }
                    if !matches!(self.cur(), Some(b'0'..=b'9')) {
                        return Ok(self.token(TokenKind::Char('.'), start));
                    }
                    return self.numeral(start);
                }
                b' ' | b'\t' | 0x0b | 0x0c => self.pos += 1,
                b'0'..=b'9' => return self.numeral(start),
                b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                    while let Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_') = self.cur() {
                        self.pos += 1;
                    }
                    let kind =
                        keyword(&self.text(Span::new(start, self.pos))).unwrap_or(TokenKind::Name);
                    return Ok(self.token(kind, start));
                }
                _ => {
                    // Lua takes the first byte for the token; a UTF-8
                    // character is kept whole to be quoted readably, and a
                    // byte that starts none reads as U+FFFD, as the server's
                    // message does when decoded.
                    let ahead = &self.bytes[start..(start + 4).min(self.bytes.len())];
                    let ch = ahead
                        .utf8_chunks()
                        .next()
                        .and_then(|chunk| chunk.valid().chars().next());
                    self.pos += ch.map_or(1, char::len_utf8);
                    let ch = ch.unwrap_or(char::REPLACEMENT_CHARACTER);
                    return Ok(self.token(TokenKind::Char(ch), start));
                }
            }
        }
    }

    /// Lua's `read_numeral`, at the first digit (or after the `.` of `.5`):
    /// digits and dots, an optional exponent mark and sign, then any letters,
    /// digits and underscores; the whole must then convert as a number.
    fn numeral(&mut self, start: usize) -> Result<Token, LexError> {
        while let Some(b'0'..=b'9' | b'.') = self.cur() {
            self.pos += 1;
        }
        // `check_next(ls, "Ee")` and `check_next(ls, "+-")`: a NUL byte
        // matches too (see the `.` case above).
        if let Some(b'E' | b'e' | 0) = self.cur() {
            self.pos += 1;
            if let Some(b'+' | b'-' | 0) = self.cur() {
                self.pos += 1;
            }
        }
        while let Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_') = self.cur() {
            self.pos += 1;
        }
        let text = cut_at_nul(&self.text(Span::new(start, self.pos)));
        match str_to_number(&text) {
            Some(value) => {
                let mut token = self.token(TokenKind::Number, start);
                token.number = value;
                Ok(token)
            }
            None => Err(self.error("malformed number", Some(text), start)),
        }
    }

    /// Lua's `read_string`, at the opening quote `delim`.
    fn short_string(&mut self, start: usize, delim: u8) -> Result<Token, LexError> {
        let mut value = Vec::new();
        self.pos += 1;
        // What Lua quotes after "near": the opening quote and the value so far.
        let near = |value: &[u8]| {
            let mut text = vec![delim];
            text.extend_from_slice(value);
            Some(quote_bytes(&text))
        };
        loop {
            let Some(c) = self.cur() else {
                return Err(self.error("unfinished string", Some("<eof>".to_owned()), start));
            };
            match c {
                _ if c == delim => break,
                b'\n' | b'\r' => return Err(self.error("unfinished string", near(&value), start)),
                b'\\' => {
                    let escape = self.pos;
                    self.pos += 1;
                    let Some(c) = self.cur() else {
                        continue; // "unfinished string" on the next turn
                    };
                    let resolved = match c {
                        b'a' => 0x07,
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'v' => 0x0b,
                        b'\n' | b'\r' => {
                            value.push(b'\n');
                            self.newline();
                            continue;
                        }
                        b'0'..=b'9' => {
                            let mut code = 0u32;
                            let mut digits = 0;
                            while let Some(d @ b'0'..=b'9') = self.cur() {
                                if digits == 3 {
                                    break;
                                }
                                code = code * 10 + u32::from(d - b'0');
                                digits += 1;
                                self.pos += 1;
                            }
                            let Ok(byte) = u8::try_from(code) else {
                                return Err(LexError::new(
                                    "escape sequence too large",
                                    near(&value),
                                    Span::new(escape, self.pos),
                                ));
                            };
                            value.push(byte);
                            continue;
                        }
                        // `\\`, `\"`, `\'`, and any other character: itself.
                        other => other,
                    };
                    value.push(resolved);
                    self.pos += 1;
                }
                _ => {
                    // Copy the run of plain bytes at once.
                    let run = self.bytes[self.pos..]
                        .iter()
                        .position(|&b| b == delim || b == b'\\' || b == b'\n' || b == b'\r')
                        .unwrap_or(self.bytes.len() - self.pos);
                    value.extend_from_slice(&self.bytes[self.pos..self.pos + run]);
                    self.pos += run;
                }
            }
        }
        self.pos += 1;
        let mut token = self.token(TokenKind::String, start);
        token.string = value;
        Ok(token)
    }

    /// Lua's `read_long_string`, at the second `[` of an opening bracket of
    /// level `sep`; `value` collects the contents of a string, `None` for a
    /// comment. A newline right after the opening bracket is skipped; each
    /// newline inside becomes `\n`.
    fn long_string(
        &mut self,
        start: usize,
        sep: usize,
        mut value: Option<&mut Vec<u8>>,
    ) -> Result<(), LexError> {
        self.pos += 1;
        if let Some(b'\n' | b'\r') = self.cur() {
            self.newline();
        }
        loop {
            let Some(c) = self.cur() else {
                let what = if value.is_some() {
                    "unfinished long string"
                } else {
                    "unfinished long comment"
                };
                return Err(self.error(what, Some("<eof>".to_owned()), start));
            };
            match c {
                b']' => {
                    let from = self.pos;
                    if self.skip_sep() == sep as isize {
                        self.pos += 1;
                        return Ok(());
                    }
                    if let Some(value) = value.as_deref_mut() {
                        value.extend_from_slice(&self.bytes[from..self.pos]);
                    }
                }
                b'\n' | b'\r' => {
                    if let Some(value) = value.as_deref_mut() {
                        value.push(b'\n');
                    }
                    self.newline();
                }
                _ => {
                    let run = self.bytes[self.pos..]
                        .iter()
                        .position(|&b| b == b']' || b == b'\n' || b == b'\r')
                        .unwrap_or(self.bytes.len() - self.pos);
                    if let Some(value) = value.as_deref_mut() {
                        value.extend_from_slice(&self.bytes[self.pos..self.pos + run]);
                    }
                    self.pos += run;
                }
            }
        }
    }
}

fn keyword(word: &str) -> Option<TokenKind> {
    Some(match word {
        "and" => TokenKind::And,
        "break" => TokenKind::Break,
        "do" => TokenKind::Do,
        "else" => TokenKind::Else,
        "elseif" => TokenKind::Elseif,
        "end" => TokenKind::End,
        "false" => TokenKind::False,
        "for" => TokenKind::For,
        "function" => TokenKind::Function,
        "if" => TokenKind::If,
        "in" => TokenKind::In,
        "local" => TokenKind::Local,
        "nil" => TokenKind::Nil,
        "not" => TokenKind::Not,
        "or" => TokenKind::Or,
        "repeat" => TokenKind::Repeat,
        "return" => TokenKind::Return,
        "then" => TokenKind::Then,
        "true" => TokenKind::True,
        "until" => TokenKind::Until,
        "while" => TokenKind::While,
        _ => return None,
    })
}

/// The text up to its first NUL byte, as C sees a string.
fn cut_at_nul(text: &str) -> String {
    text.split('\0').next().unwrap_or_default().to_owned()
}

/// Bytes quoted in a message: cut at a NUL like C, invalid UTF-8 replaced.
fn quote_bytes(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Lua 5.1's `luaO_str2d` with glibc's `strtod`, on the text of a numeral
/// (which `read_numeral` makes of digits, dots, `e`/`E` and a sign, letters
/// and `_`): the number if `strtod` reads all of it, decimal or hexadecimal
/// (`0x1F`, and hexadecimal floats like `0x1p4`), else `None`.
///
/// (Lua also retries with `strtoul` in base 16 when `strtod` stops at an
/// `x`; on a numeral that never reads more than `strtod` did.)
pub fn str_to_number(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    if b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        return hex_to_number(&b[2..]);
    }
    // digits [. digits] [(e|E) [+|-] digits], with a digit before or after the dot.
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = digits(0);
    let mut mantissa = i;
    if b.get(i) == Some(&b'.') {
        let fraction = digits(i + 1);
        mantissa += fraction;
        i += 1 + fraction;
    }
    if mantissa == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        let mut j = i + 1;
        if let Some(b'+' | b'-') = b.get(j) {
            j += 1;
        }
        let exponent = digits(j);
        if exponent == 0 {
            return None;
        }
        i = j + exponent;
    }
    if i != b.len() {
        return None;
    }
    text.parse().ok()
}

/// The part of a hexadecimal numeral after `0x`: hex digits and an optional
/// binary exponent `p` + decimal digits (a numeral has no sign there, nor a
/// dot after the `x`: `read_numeral` stops at them).
fn hex_to_number(b: &[u8]) -> Option<f64> {
    let digits = b.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if digits == 0 {
        return None;
    }
    let mut exponent: i32 = 0;
    match b.get(digits) {
        None => {}
        Some(b'p' | b'P') => {
            let rest = &b[digits + 1..];
            if rest.is_empty() || !rest.iter().all(u8::is_ascii_digit) {
                return None;
            }
            for &d in rest {
                exponent = exponent
                    .saturating_mul(10)
                    .saturating_add(i32::from(d - b'0'));
            }
        }
        Some(_) => return None,
    }
    // Exact up to 2^53; beyond, close enough for a syntax check.
    let mantissa = b[..digits].iter().fold(0.0f64, |m, &d| {
        m * 16.0 + f64::from((d as char).to_digit(16).unwrap_or(0))
    });
    if mantissa == 0.0 {
        return Some(0.0);
    }
    Some(mantissa * 2f64.powi(exponent.min(4096)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All tokens of `src` as (kind, text), or the first error's message.
    fn lex(src: &str) -> Result<Vec<(TokenKind, &str)>, String> {
        let mut lexer = Lexer::new(src.as_bytes()).map_err(|e| e.message)?;
        let mut out = Vec::new();
        loop {
            let token = lexer.next_token().map_err(|e| e.message)?;
            if token.kind == TokenKind::Eof {
                return Ok(out);
            }
            out.push((token.kind, &src[token.span.start..token.span.end]));
        }
    }

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src)
            .unwrap()
            .into_iter()
            .map(|(kind, _)| kind)
            .collect()
    }

    fn single(src: &str) -> Token {
        let mut lexer = Lexer::new(src.as_bytes()).unwrap();
        lexer.next_token().unwrap()
    }

    fn string_value(src: &str) -> Vec<u8> {
        let token = single(src);
        assert_eq!(token.kind, TokenKind::String, "{src:?}");
        token.string
    }

    fn number(src: &str) -> f64 {
        let token = single(src);
        assert_eq!(token.kind, TokenKind::Number, "{src:?}");
        token.number
    }

    fn error(src: &str) -> (String, Span) {
        let mut lexer = match Lexer::new(src.as_bytes()) {
            Ok(lexer) => lexer,
            Err(e) => return (e.message, e.span),
        };
        loop {
            match lexer.next_token() {
                Ok(token) if token.kind == TokenKind::Eof => panic!("no error in {src:?}"),
                Ok(_) => {}
                Err(e) => return (e.message, e.span),
            }
        }
    }

    #[test]
    fn spans_are_byte_offsets() {
        let src = "local é = x..'y'";
        let mut lexer = Lexer::new(src.as_bytes()).unwrap();
        let mut spans = Vec::new();
        loop {
            let token = lexer.next_token().unwrap();
            spans.push((token.kind, token.span));
            if token.kind == TokenKind::Eof {
                break;
            }
        }
        assert_eq!(
            spans,
            vec![
                (TokenKind::Local, Span::new(0, 5)),
                (TokenKind::Char('é'), Span::new(6, 8)),
                (TokenKind::Char('='), Span::new(9, 10)),
                (TokenKind::Name, Span::new(11, 12)),
                (TokenKind::Concat, Span::new(12, 14)),
                (TokenKind::String, Span::new(14, 17)),
                (TokenKind::Eof, Span::new(17, 17)),
            ]
        );
    }

    #[test]
    fn dots_and_numbers() {
        use TokenKind::*;
        assert_eq!(kinds("a..b"), vec![Name, Concat, Name]);
        assert_eq!(kinds("..."), vec![Dots]);
        assert_eq!(kinds("...."), vec![Dots, Char('.')]);
        assert_eq!(kinds("a.b"), vec![Name, Char('.'), Name]);
        assert_eq!(kinds(".5"), vec![Number]);
        assert_eq!(kinds("1 .. 2"), vec![Number, Concat, Number]);
        assert_eq!(kinds("a..5"), vec![Name, Concat, Number]);
        assert_eq!(
            kinds("~= == <= >= < > = ~"),
            vec![Ne, Eq, Le, Ge, Char('<'), Char('>'), Char('='), Char('~')]
        );
        // A NUL byte passes for a dot after a dot (C's strchr finds the terminator).
        assert_eq!(kinds(".\0"), vec![Concat]);
        assert_eq!(kinds("..\0"), vec![Dots]);
    }

    #[test]
    fn numbers_convert_like_strtod() {
        assert_eq!(number("3"), 3.0);
        assert_eq!(number("3.25"), 3.25);
        assert_eq!(number(".5"), 0.5);
        assert_eq!(number("5."), 5.0);
        assert_eq!(number("1e3"), 1000.0);
        assert_eq!(number("1.e2"), 100.0);
        assert_eq!(number("2E-1"), 0.2);
        assert_eq!(number("1e+2"), 100.0);
        assert_eq!(number("08"), 8.0);
        assert_eq!(number("0x1F"), 31.0);
        assert_eq!(number("0XaB"), 171.0);
        assert_eq!(number("0x1p4"), 16.0);
        assert_eq!(number("0x1P10"), 1024.0);
        assert_eq!(number("0x1e5"), 485.0);
        assert_eq!(number("0x0p99999"), 0.0);
        assert_eq!(number("1e999"), f64::INFINITY);
        // `0x1e+5` is `0x1e`, `+`, `5`.
        assert_eq!(
            kinds("0x1e+5"),
            vec![TokenKind::Number, TokenKind::Char('+'), TokenKind::Number]
        );
        // `0x1.8`: the numeral stops at the dot after the `x`.
        assert_eq!(kinds("0x1.8"), vec![TokenKind::Number, TokenKind::Number]);
        // A NUL right after the digits is swallowed (strchr again), and cut.
        assert_eq!(number("1\0\0"), 1.0);
        assert_eq!(number("1\0x"), 1.0);
    }

    #[test]
    fn malformed_numbers() {
        for (src, text) in [
            ("3x", "3x"),
            ("1..2", "1..2"),
            ("1.2.3", "1.2.3"),
            ("1e", "1e"),
            ("1e+", "1e+"),
            ("1e+x", "1e+x"),
            ("0x", "0x"),
            ("0xg", "0xg"),
            ("0x1p", "0x1p"),
            ("1_000", "1_000"),
            ("12x34", "12x34"),
            ("0x1p4f", "0x1p4f"),
            (".5.5", ".5.5"),
        ] {
            let (message, span) = error(src);
            assert_eq!(
                message,
                format!("malformed number near '{text}'"),
                "{src:?}"
            );
            assert_eq!(span.start, 0, "{src:?}");
        }
        // `0x1p-4` is `0x1p` then `-4`: malformed.
        assert_eq!(error("x = 0x1p-4").0, "malformed number near '0x1p'");
        assert_eq!(error("x = 0x1p-4").1, Span::new(4, 8));
    }

    #[test]
    fn short_strings_and_escapes() {
        assert_eq!(string_value(r#""abc""#), b"abc");
        assert_eq!(string_value(r#"'a"b'"#), b"a\"b");
        assert_eq!(string_value(r#""a\'b""#), b"a'b");
        assert_eq!(
            string_value(r#""\a\b\f\n\r\t\v\\\"""#),
            b"\x07\x08\x0c\n\r\t\x0b\\\""
        );
        assert_eq!(string_value(r#""\65\066\0677""#), b"AB\x437");
        assert_eq!(string_value(r#""\0""#), b"\0");
        assert_eq!(string_value(r#""\255""#), b"\xff");
        // Unknown escapes keep the character (Lua 5.1).
        assert_eq!(string_value(r#""\z\x\q""#), b"zxq");
        // An escaped newline is a newline, whatever its bytes.
        assert_eq!(string_value("\"a\\\nb\""), b"a\nb");
        assert_eq!(string_value("\"a\\\r\nb\""), b"a\nb");
        assert_eq!(string_value("\"é\\é\""), "éé".as_bytes());
    }

    #[test]
    fn string_errors() {
        assert_eq!(error("x = \"abc").0, "unfinished string near '<eof>'");
        assert_eq!(error("x = \"abc\ny\"").0, "unfinished string near '\"abc'");
        assert_eq!(error("x = \"abc\ny\"").1, Span::new(4, 8));
        assert_eq!(error("x = 'a\\tb\r'").0, "unfinished string near ''a\tb'");
        assert_eq!(error("x = \"abc\\").0, "unfinished string near '<eof>'");
        assert_eq!(
            error("x = \"a\\\\\r\nb\"").0,
            "unfinished string near '\"a\\'"
        );
        assert_eq!(
            error("x = \"ab\\256\"").0,
            "escape sequence too large near '\"ab'"
        );
        assert_eq!(error("x = \"ab\\256\"").1, Span::new(7, 11));
        assert_eq!(
            error("x = \"\\999\"").0,
            "escape sequence too large near '\"'"
        );
        // C cuts the quoted text at a NUL.
        assert_eq!(error("x = \"a\\0b\n\"").0, "unfinished string near '\"a'");
    }

    #[test]
    fn long_strings() {
        assert_eq!(string_value("[[abc]]"), b"abc");
        assert_eq!(string_value("[[\nabc]]"), b"abc");
        assert_eq!(string_value("[[\r\nabc]]"), b"abc");
        assert_eq!(string_value("[[\n\nabc]]"), b"\nabc");
        assert_eq!(string_value("[[a\r\nb\n\rc\rd]]"), b"a\nb\nc\nd");
        assert_eq!(string_value("[==[a]]b]=]c]===]d]==]"), b"a]]b]=]c]===]d");
        // No LUA_COMPAT_LSTR in Redis: `[[` inside is text.
        assert_eq!(string_value("[[a[[b]]"), b"a[[b");
        assert_eq!(string_value("[=[a]]]=]"), b"a]]");
        assert_eq!(string_value("[[]]"), b"");
        assert_eq!(string_value("[[a]=]]"), b"a]=");
        assert_eq!(
            kinds("a[ [b]]"),
            vec![
                TokenKind::Name,
                TokenKind::Char('['),
                TokenKind::Char('['),
                TokenKind::Name,
                TokenKind::Char(']'),
                TokenKind::Char(']')
            ]
        );
    }

    #[test]
    fn long_string_errors() {
        assert_eq!(
            error("x = [==[ abc ]=]").0,
            "unfinished long string near '<eof>'"
        );
        assert_eq!(error("x = [==[ abc ]=]").1, Span::new(4, 16));
        assert_eq!(
            error("x = [=x").0,
            "invalid long string delimiter near '[='"
        );
        assert_eq!(error("x = [=x").1, Span::new(4, 6));
        assert_eq!(
            error("x = [==").0,
            "invalid long string delimiter near '[=='"
        );
        assert_eq!(
            error("--[==[ comment ]=]").0,
            "unfinished long comment near '<eof>'"
        );
    }

    #[test]
    fn comments() {
        use TokenKind::*;
        assert_eq!(kinds("a -- b\nc"), vec![Name, Name]);
        assert_eq!(kinds("a --[[ b\n ]] c"), vec![Name, Name]);
        assert_eq!(kinds("a --[==[ ]] ]==] c"), vec![Name, Name]);
        // Not a long bracket: a line comment.
        assert_eq!(kinds("a --[= b ]]\nc"), vec![Name, Name]);
        assert_eq!(kinds("a --[ b\nc"), vec![Name, Name]);
        assert_eq!(kinds("a - - b"), vec![Name, Char('-'), Char('-'), Name]);
        assert_eq!(kinds("--"), vec![]);
    }

    #[test]
    fn names_and_other_characters() {
        use TokenKind::*;
        assert_eq!(
            lex("_a1 and_ And nil").unwrap(),
            vec![(Name, "_a1"), (Name, "and_"), (Name, "And"), (Nil, "nil")]
        );
        assert_eq!(kinds("a\u{b}b\u{c}c\td"), vec![Name, Name, Name, Name]);
        assert_eq!(
            kinds("@ $ \u{1b} é"),
            vec![Char('@'), Char('$'), Char('\u{1b}'), Char('é')]
        );
        assert_eq!(TokenKind::Char('\u{1b}').describe(), "char(27)");
        assert_eq!(TokenKind::Char('\u{7f}').describe(), "char(127)");
        assert_eq!(TokenKind::Char('@').describe(), "@");
    }

    #[test]
    fn lines_count_like_lua() {
        let mut lexer = Lexer::new(b"a\r\nb\n\rc\r\rd\n\ne").unwrap();
        let mut lines = Vec::new();
        loop {
            let token = lexer.next_token().unwrap();
            if token.kind == TokenKind::Eof {
                break;
            }
            lines.push(lexer.line());
        }
        assert_eq!(lines, vec![1, 2, 3, 5, 7]);
        // A multi-line token leaves the lexer on its last line.
        let mut lexer = Lexer::new(b"x = [[\na\nb]] y").unwrap();
        for _ in 0..3 {
            lexer.next_token().unwrap();
        }
        assert_eq!(lexer.line(), 3);
    }

    #[test]
    fn shebang_line_is_skipped() {
        let src = "#!lua flags=no-writes\nreturn 1";
        let mut lexer = Lexer::new(src.as_bytes()).unwrap();
        let token = lexer.next_token().unwrap();
        assert_eq!(token.kind, TokenKind::Return);
        assert_eq!(token.span, Span::new(22, 28));
        assert_eq!(lexer.line(), 2);
        assert_eq!(
            error("#!lua"),
            ("Invalid script shebang".to_owned(), Span::new(0, 5))
        );
        assert_eq!(error("#!lua\0\nreturn 1").0, "Invalid script shebang");
        // Only at byte 0.
        assert_eq!(
            kinds(" #!lua\n"),
            vec![TokenKind::Char('#'), TokenKind::Char('!'), TokenKind::Name]
        );
    }

    #[test]
    fn near_texts() {
        let src = "x [==[a\r\nb]==] 'c\\n\\0d' 12e3 \0 é ...";
        let mut lexer = Lexer::new(src.as_bytes()).unwrap();
        let mut nears = Vec::new();
        loop {
            let token = lexer.next_token().unwrap();
            nears.push(lexer.near(&token));
            if token.kind == TokenKind::Eof {
                break;
            }
        }
        let expected = ["x", "[==[a\nb]==]", "'c\n", "12e3"];
        let mut expected: Vec<Option<String>> =
            expected.iter().map(|s| Some((*s).to_owned())).collect();
        expected.extend([
            None,
            Some("é".to_owned()),
            Some("...".to_owned()),
            Some("<eof>".to_owned()),
        ]);
        assert_eq!(nears, expected);
    }
}
