//! Which string of a command call the cursor is in: the command's name
//! (`redis.call('GE`), or, after a name, the next argument, which picks a
//! container's subcommand (`redis.call('CLIENT', 'LI`). Read from the text
//! around the cursor rather than from the syntax tree, since a script being
//! typed rarely parses; a string is a short string on one line.

use std::ops::Range;

/// The functions that run a command: `redis.call`, and Valkey's `server.call`.
const CALLS: [&str; 4] = ["redis.call", "redis.pcall", "server.call", "server.pcall"];

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
    /// The argument after the name `command`: a subcommand when that
    /// command is a container.
    AfterCommand {
        /// The command's name, as written.
        command: &'t str,
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

/// The call string whose text holds byte `offset` of `text` (its ends
/// included: the cursor may be right after the opening quote, or before
/// the closing one).
pub(crate) fn at(text: &str, offset: usize) -> Option<CallString<'_>> {
    let string = strings(text, line_start(text, offset))
        .into_iter()
        .find(|string| string.content.start <= offset && offset <= string.content.end)?;
    let argument = if is_command_name(text, &string) {
        Argument::Command
    } else {
        let comma = previous_token(text, string.quote)?;
        if text.as_bytes()[comma] != b',' {
            return None;
        }
        let close = previous_token(text, comma)?;
        let name = strings(text, line_start(text, close))
            .into_iter()
            .find(|name| name.content.end == close)?;
        if !is_command_name(text, &name) {
            return None;
        }
        Argument::AfterCommand {
            command: &text[name.content],
        }
    };
    Some(CallString {
        content: string.content,
        argument,
    })
}

/// Whether `string` is the first argument of one of [`CALLS`].
fn is_command_name(text: &str, string: &ShortString) -> bool {
    let Some(paren) = previous_token(text, string.quote) else {
        return false;
    };
    if text.as_bytes()[paren] != b'(' {
        return false;
    }
    let Some(last) = previous_token(text, paren) else {
        return false;
    };
    let bytes = text.as_bytes();
    let first = bytes[..=last]
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))
        .map_or(0, |at| at + 1);
    CALLS.contains(&&text[first..=last])
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

/// The short strings of the line starting at `start`, up to its end or to
/// a comment; a long string (`[[...]]`) is skipped.
fn strings(text: &str, start: usize) -> Vec<ShortString> {
    let bytes = text.as_bytes();
    let end = bytes[start..]
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
                found.push(ShortString {
                    quote: at,
                    content: at + 1..close,
                });
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
                        Some(close) => at = body + close + closing.len(),
                        None => break,
                    }
                } else {
                    at += 1;
                }
            }
            _ => at += 1,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The call string at the `|` of `marked`, with its text.
    fn at_mark(marked: &str) -> Option<(String, Argument<'static>)> {
        let offset = marked.find('|').unwrap();
        let text: &'static str = Box::leak(marked.replacen('|', "", 1).into_boxed_str());
        let found = at(text, offset)?;
        Some((text[found.content].to_owned(), found.argument))
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
        let (text, argument) = at_mark("redis.call('CLIENT', 'LI|')").unwrap();
        assert_eq!(text, "LI");
        assert_eq!(argument, Argument::AfterCommand { command: "CLIENT" });
        let (text, argument) = at_mark("redis.call(\"config\",\n 'g|").unwrap();
        assert_eq!(text, "g");
        assert_eq!(argument, Argument::AfterCommand { command: "config" });
    }

    #[test]
    fn other_strings_are_not_call_strings() {
        for marked in [
            "print('GE|T')",
            "myredis.call('GE|T')",
            "x.redis.call('GE|T')",
            "redis.call(KEYS[1], 'G|')",
            "redis.call('SET', KEYS[1], 'v|')",
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
