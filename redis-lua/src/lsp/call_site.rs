//! Which string of a command call the cursor is in: the command's name
//! (`redis.call('GE`), or a later argument (`redis.call('CLIENT', 'LI`,
//! `redis.call('SET', KEYS[1], v, 'N`), with the literal strings before it.
//! Read from the text around the cursor rather than from the syntax tree,
//! since a script being typed rarely parses; a string is a short string on
//! one line, and a call is looked for from at most [`LOOKBACK`] lines up.

use std::ops::Range;

/// The functions that run a command: `redis.call`, and Valkey's `server.call`.
const CALLS: [&str; 4] = ["redis.call", "redis.pcall", "server.call", "server.pcall"];

/// How many lines before the cursor's a call may start on.
const LOOKBACK: usize = 30;

/// A string argument of a command call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallString<'t> {
    /// The string's text between its quotes (to the line's end when it is
    /// not closed yet), in bytes.
    pub(crate) content: Range<usize>,
    /// Which argument it is.
    pub(crate) argument: Argument<'t>,
}

/// Which argument of a call a string is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Argument<'t> {
    /// The command's name.
    Command,
    /// An argument after the name `command`: the first is a subcommand
    /// when that command is a container.
    AfterCommand {
        /// The command's name, as written.
        command: &'t str,
        /// The arguments between the name and this one, in order: the text
        /// of each that is one literal string, `None` for any other.
        before: Vec<Option<&'t str>>,
    },
}

/// A short string on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ShortString {
    /// Its opening quote.
    quote: usize,
    /// Its text between the quotes.
    content: Range<usize>,
}

/// The names that run a command where a document is read: [`CALLS`], and
/// the aliases that the document, or the scripts that include it (for a
/// fragment, whose aliases its includer declares), give them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Callers {
    aliases: Vec<String>,
}

impl Callers {
    /// The callers of the texts given: a document's, then its includers'.
    pub(crate) fn of<'t>(texts: impl IntoIterator<Item = &'t str>) -> Callers {
        let mut aliases: Vec<String> = Vec::new();
        for text in texts {
            for alias in self::aliases(text) {
                if !aliases.iter().any(|known| known == alias) {
                    aliases.push(alias.to_owned());
                }
            }
        }
        Callers { aliases }
    }

    /// Whether `callee` (as written: `redis.call`, `rcall`) runs a command.
    fn run_commands(&self, callee: &str) -> bool {
        CALLS.contains(&callee) || self.aliases.iter().any(|alias| alias == callee)
    }
}

/// The call string whose text holds byte `offset` of `text` (its ends
/// included: the cursor may be right after the opening quote, or before
/// the closing one), in a call of one of `callers`.
pub(crate) fn at<'t>(text: &'t str, offset: usize, callers: &Callers) -> Option<CallString<'t>> {
    let string = strings(text, line_start(text, offset))
        .into_iter()
        .find(|string| string.content.start <= offset && offset <= string.content.end)?;
    let call = open_call(text, string.quote)?;
    if !is_call_function(text, call.paren, callers) {
        return None;
    }
    let mut arguments = call
        .arguments
        .into_iter()
        .map(|argument| argument.map(|content| &text[content]));
    let argument = match arguments.next() {
        None => Argument::Command,
        Some(command) => Argument::AfterCommand {
            command: command?,
            before: arguments.collect(),
        },
    };
    Some(CallString {
        content: string.content,
        argument,
    })
}

/// A call's parenthesis still open at some point, with its arguments so far.
struct OpenCall {
    paren: usize,
    /// Each argument before the point: the content of the one literal
    /// string it is, or `None`.
    arguments: Vec<Option<Range<usize>>>,
}

/// What the argument being read is so far.
enum Partial {
    Empty,
    Literal(Range<usize>),
    Other,
}

/// A bracket still open while reading forward.
struct Open {
    at: usize,
    bracket: u8,
    arguments: Vec<Option<Range<usize>>>,
    current: Partial,
}

/// The parenthesis open at byte `quote` (a string's opening quote) whose
/// argument the string starts, read forward from [`LOOKBACK`] lines up;
/// `None` when the string is inside other brackets or starts no argument
/// (`'a' .. 'b'`).
fn open_call(text: &str, quote: usize) -> Option<OpenCall> {
    let mut start = line_start(text, quote);
    for _ in 0..LOOKBACK {
        if start == 0 {
            break;
        }
        start = line_start(text, start - 1);
    }
    let outside = Open {
        at: 0,
        bracket: 0,
        arguments: Vec::new(),
        current: Partial::Empty,
    };
    let mut open = vec![outside];
    let mut line = start;
    while line <= quote {
        let (tokens, end) = line_tokens(text, line);
        for token in tokens {
            let top = open.last_mut()?;
            match token {
                Token::String(string) if string.quote >= quote => {
                    let top = open.pop()?;
                    return (top.bracket == b'(' && matches!(top.current, Partial::Empty))
                        .then_some(OpenCall {
                            paren: top.at,
                            arguments: top.arguments,
                        });
                }
                Token::String(string) => {
                    top.current = match top.current {
                        Partial::Empty => Partial::Literal(string.content),
                        _ => Partial::Other,
                    };
                }
                Token::Punct(at, bracket @ (b'(' | b'[' | b'{')) => {
                    top.current = Partial::Other;
                    open.push(Open {
                        at,
                        bracket,
                        arguments: Vec::new(),
                        current: Partial::Empty,
                    });
                }
                Token::Punct(_, b',') => {
                    let argument = std::mem::replace(&mut top.current, Partial::Empty);
                    top.arguments.push(match argument {
                        Partial::Literal(content) => Some(content),
                        _ => None,
                    });
                }
                Token::Punct(..) => {
                    if open.len() > 1 {
                        open.pop();
                    }
                }
                Token::Other => top.current = Partial::Other,
            }
        }
        line = end + 1;
    }
    None
}

/// Whether the parenthesis at `paren` follows one of [`CALLS`].
fn is_call_function(text: &str, paren: usize, callers: &Callers) -> bool {
    let Some(last) = previous_token(text, paren) else {
        return false;
    };
    callers.run_commands(path_ending_at(text, last))
}

/// The name or dotted path whose last byte is `last` (`redis.call` before
/// a parenthesis); empty when that byte is no byte of one.
fn path_ending_at(text: &str, last: usize) -> &str {
    let first = text.as_bytes()[..=last]
        .iter()
        .rposition(|&b| !is_path_byte(b))
        .map_or(0, |at| at + 1);
    &text[first..=last]
}

/// A byte of a name or a dotted path (`redis.call`, `M.rcall`).
fn is_path_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'.'
}

/// The names the text gives one of [`CALLS`], as the checks follow them:
/// `local rcall = redis.call`, `rcall = redis.pcall`, `M.call =
/// server.call`. Read from the text, as the rest of this module.
pub(crate) fn aliases(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for call in CALLS {
        let mut from = 0;
        while let Some(at) = text[from..].find(call).map(|at| from + at) {
            from = at + call.len();
            let whole = bytes.get(from).is_none_or(|&b| !is_path_byte(b))
                && (at == 0 || !is_path_byte(bytes[at - 1]));
            let Some(equals) = previous_token(text, at).filter(|_| whole) else {
                continue;
            };
            // `=`, not `==`, `~=`, `<=` or `>=`.
            let assigns = bytes[equals] == b'='
                && (equals == 0 || !matches!(bytes[equals - 1], b'=' | b'~' | b'<' | b'>'));
            let Some(last) = previous_token(text, equals).filter(|_| assigns) else {
                continue;
            };
            let alias = path_ending_at(text, last);
            if !alias.is_empty() && !found.contains(&alias) {
                found.push(alias);
            }
        }
    }
    found
}

/// The last byte before `at` that is not blank (line endings included).
fn previous_token(text: &str, at: usize) -> Option<usize> {
    text.as_bytes()[..at]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
}

/// Where the line holding byte `offset` starts.
fn line_start(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |at| at + 1)
}

/// What reading a line meets.
enum Token {
    String(ShortString),
    /// A bracket, or a comma, and where.
    Punct(usize, u8),
    /// Any other byte that is not blank.
    Other,
}

/// The short strings of the line starting at `start`.
fn strings(text: &str, start: usize) -> Vec<ShortString> {
    line_tokens(text, start)
        .0
        .into_iter()
        .filter_map(|token| match token {
            Token::String(string) => Some(string),
            _ => None,
        })
        .collect()
}

/// The tokens of the line starting at `start`, up to its end or to a
/// comment, and where it ends; a long string (`[[...]]`) closed on the line
/// is skipped, one that is not ends it.
fn line_tokens(text: &str, start: usize) -> (Vec<Token>, usize) {
    let bytes = text.as_bytes();
    let end = bytes[start.min(bytes.len())..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |at| start + at);
    let line = &bytes[..end];
    let mut found = Vec::new();
    let mut at = start;
    while at < end {
        match line[at] {
            quote @ (b'\'' | b'"') => {
                let mut close = at + 1;
                while close < end && line[close] != quote {
                    close += if line[close] == b'\\' { 2 } else { 1 };
                }
                let close = close.min(end);
                found.push(Token::String(ShortString {
                    quote: at,
                    content: at + 1..close,
                }));
                at = close + 1;
            }
            b'-' if line.get(at + 1) == Some(&b'-') => break,
            b'[' => {
                // `[[` or `[==[`: a long string, to its `]]` or `]==]`.
                let level = line[at + 1..].iter().take_while(|&&b| b == b'=').count();
                if line.get(at + 1 + level) == Some(&b'[') {
                    let closing = format!("]{}]", "=".repeat(level));
                    let body = at + 2 + level;
                    match text[body..end].find(&closing) {
                        Some(close) => {
                            found.push(Token::Other);
                            at = body + close + closing.len();
                        }
                        None => break,
                    }
                } else {
                    found.push(Token::Punct(at, b'['));
                    at += 1;
                }
            }
            punct @ (b'(' | b')' | b']' | b'{' | b'}' | b',') => {
                found.push(Token::Punct(at, punct));
                at += 1;
            }
            b if b.is_ascii_whitespace() => at += 1,
            _ => {
                found.push(Token::Other);
                at += 1;
            }
        }
    }
    (found, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The call string at the `|` of `marked`, with its text.
    fn at_mark(marked: &str) -> Option<(String, Argument<'static>)> {
        let offset = marked.find('|').unwrap();
        let text: &'static str = Box::leak(marked.replacen('|', "", 1).into_boxed_str());
        let found = at(text, offset, &Callers::of([text]))?;
        Some((text[found.content].to_owned(), found.argument))
    }

    #[test]
    fn aliases_are_call_functions() {
        for marked in [
            "local rcall = redis.call\nreturn rcall('GE|T', KEYS[1])",
            "local M = {}\nM.call = server.pcall\nM.call('GET|')",
            "rcall = redis.call rcall('GET|')",
        ] {
            let (text, argument) = at_mark(marked).unwrap();
            assert_eq!(
                (text.as_str(), argument),
                ("GET", Argument::Command),
                "{marked}"
            );
        }
        // A comparison is no alias; nor a longer name that holds one.
        for marked in [
            "if f == redis.call then end f('GET|')",
            "local f = redis.callback f('GET|')",
            "local f = myredis.call f('GET|')",
            "f('GET|')",
        ] {
            assert_eq!(at_mark(marked), None, "{marked}");
        }
        assert_eq!(
            aliases("local rcall = redis.call\nlocal pc = redis.pcall"),
            ["rcall", "pc"]
        );
    }

    #[test]
    fn the_name_of_each_call_function() {
        for marked in [
            "return redis.call('GE|T', KEYS[1])",
            "return redis.pcall(\"|GET\")",
            "server.call( 'GET|', 'k')",
            "local x = server.pcall(\n  'GET|'",
            "redis.call('GET|",
        ] {
            let (text, argument) = at_mark(marked).unwrap();
            assert_eq!(
                (text.as_str(), argument),
                ("GET", Argument::Command),
                "{marked}"
            );
        }
    }

    #[test]
    fn the_argument_after_the_name() {
        let after = |command, before: &[Option<&'static str>]| Argument::AfterCommand {
            command,
            before: before.to_vec(),
        };
        let (text, argument) = at_mark("redis.call('CLIENT', 'LI|')").unwrap();
        assert_eq!(text, "LI");
        assert_eq!(argument, after("CLIENT", &[]));
        let (text, argument) = at_mark("redis.call(\"config\",\n 'g|").unwrap();
        assert_eq!(text, "g");
        assert_eq!(argument, after("config", &[]));
    }

    #[test]
    fn a_later_argument_with_the_literals_before_it() {
        let after = |command, before: &[Option<&'static str>]| Argument::AfterCommand {
            command,
            before: before.to_vec(),
        };
        let (text, argument) = at_mark("redis.call('SET', KEYS[1], 'v', 'N|')").unwrap();
        assert_eq!(text, "N");
        assert_eq!(argument, after("SET", &[None, Some("v")]));
        let (_, argument) =
            at_mark("redis.call('SET', KEYS[1], tostring(f(1, 2)), 'EX', 10, '|").unwrap();
        assert_eq!(argument, after("SET", &[None, None, Some("EX"), None]));
        let (_, argument) =
            at_mark("server.call('CLIENT', 'KILL',\n  'ID', ARGV[1], -- the client\n  '|'")
                .unwrap();
        assert_eq!(argument, after("CLIENT", &[Some("KILL"), Some("ID"), None]));
        let (_, argument) = at_mark("redis.call('ZADD', k, { 'a', 'b' }, '|").unwrap();
        assert_eq!(argument, after("ZADD", &[None, None]));
    }

    #[test]
    fn other_strings_are_not_call_strings() {
        for marked in [
            "print('GE|T')",
            "myredis.call('GE|T')",
            "x.redis.call('GE|T')",
            "redis.call(KEYS[1], 'G|')",
            "redis.call('SET', f('v|'))",
            "redis.call('SET', {'v|'})",
            "redis.call('SET', 'k' .. 'v|')",
            "redis.call('GET') -- redis.call('GE|T')",
            "local s = [[ redis.call('GE|T') ]]",
            "redis.call('GET', 'x') .. 'y|'",
            "return 'a|'",
        ] {
            assert_eq!(at_mark(marked), None, "{marked}");
        }
    }

    #[test]
    fn escapes_and_long_strings_before_the_call() {
        let (text, _) = at_mark("local s = 'it\\'s' .. [==[ ]] ]==] redis.call('IN|CR'").unwrap();
        assert_eq!(text, "INCR");
    }
}
