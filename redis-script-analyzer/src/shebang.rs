//! The Redis 7 shebang: `#!lua flags=no-writes,allow-oom` on the first line.
//!
//! Follows Redis 7.0's `evalExtractShebangFlags`: the line is split into
//! parts as `sdssplitargs` splits a command line (whitespace separates,
//! quotes group and may fail to close), the first must be `#!lua`, every
//! other part must start with `flags=` (case-sensitive in 7.0), whose value is
//! a comma-separated list of exact flag names; several `flags=` parts add up.
//!
//! Every Redis (7.0 to 8.2) and Valkey 8.0 read it that way. Valkey 8.1 and
//! 9.1 take the engine name in any case (`#!LUA`, `#!Lua`), so those are
//! accepted only when they are the only targets. Valkey 9.1 also lets a part
//! go on after a closing quote, as a shell does (`'flags='no-writes` is
//! `flags=no-writes`), where the others refuse the line. (Checked on
//! redis-server 7.0.15 and 8.2.3 and valkey-server 8.1.8 and 9.1.2, and in
//! Valkey 8.0.1's source: otherwise the same grammar, flags and messages.)
//! Each server's rules are its profile's (`Profile::shebang`).

use crate::servers::{Server, Servers};
use crate::suggest::{did_you_mean, suggest};
use crate::syntax::tree::Span;

/// The flags Redis 7 knows.
pub(crate) const FLAGS: &[&str] = &[
    "no-writes",
    "allow-oom",
    "allow-stale",
    "no-cluster",
    "allow-cross-slot-keys",
];

/// A script's shebang, when it has one.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Shebang {
    /// The byte length of the shebang line, without its newline.
    pub len: usize,
    /// The flags in the order written, each once.
    pub flags: Vec<&'static str>,
}

impl Shebang {
    /// Whether the script may run on replicas, with EVAL_RO / EVALSHA_RO.
    pub fn is_read_only(&self) -> bool {
        self.flags.contains(&"no-writes")
    }
}

/// A shebang a targeted server rejects, in Redis's words, with the
/// offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShebangError {
    /// The server's message.
    pub message: String,
    /// The offending part of the shebang line.
    pub span: Span,
    /// For a misspelt flag, the known flag closest to it.
    pub note: Option<String>,
    /// The servers that would accept the line, when some server takes it
    /// (the analyzer words it for the checker, naming the setting that
    /// targets them).
    pub accepted_by: Option<Servers>,
}

impl ShebangError {
    fn new(message: String, span: Span) -> ShebangError {
        ShebangError {
            message,
            span,
            note: None,
            accepted_by: None,
        }
    }
}

/// Reads the shebang at the start of `source` as every server of `targets`
/// does: `Ok(None)` when there is none.
pub fn parse(source: &str, targets: Servers) -> Result<Option<Shebang>, ShebangError> {
    if !source.starts_with("#!") {
        return Ok(None);
    }
    // The server looks for the newline in a C string: a NUL ends the search.
    let end = source.find(['\n', '\0']);
    let Some(len) = end.filter(|&at| source.as_bytes()[at] == b'\n') else {
        return Err(ShebangError::new(
            "Invalid script shebang: the `#!lua` line needs a newline after it".into(),
            Span::new(0, source.len()),
        ));
    };
    let line = &source[..len];
    // A target that ends a part at its closing quote splits it as every
    // server does when it splits at all; Valkey 9.1 alone splits more.
    let strict = targets.iter().any(|server| !continues_after_quote(server));
    let Some(parts) = split_args(line, !strict) else {
        let mut error = ShebangError::new(
            "Invalid engine in script shebang: the `#!lua` line has a quote left open, or a \
             closing quote not followed by a space"
                .into(),
            Span::new(0, len),
        );
        if split_args(line, true).is_some() {
            error.accepted_by = Some(Servers::ALL.filter(continues_after_quote));
        }
        return Err(error);
    };
    let mut parts = parts.into_iter();
    let first = parts.next();
    let engine = first.as_ref().map_or("", |(engine, _)| engine.as_str());
    let accepting = Servers::ALL.filter(|server| accepts_engine(server, engine));
    if !accepting.covers(targets) {
        let span = first.map_or(Span::new(0, 2), |(_, span)| span);
        let mut error = ShebangError::new(
            "Unexpected engine in script shebang: Redis runs `#!lua` only".into(),
            span,
        );
        if !accepting.is_empty() {
            error.message.push_str(" (in lower case)");
            error.accepted_by = Some(accepting);
        }
        return Err(error);
    }
    let mut flags = Vec::new();
    for (part, span) in parts {
        let Some(list) = part.strip_prefix("flags=") else {
            return Err(ShebangError::new(
                format!(
                    "Unknown lua shebang option `{part}`: the only option is `flags=` \
                     (e.g. `#!lua flags=no-writes`)"
                ),
                span,
            ));
        };
        if list.is_empty() {
            continue;
        }
        for flag in list.split(',') {
            match FLAGS.iter().find(|known| **known == flag) {
                Some(known) if !flags.contains(known) => flags.push(*known),
                Some(_) => {}
                None => {
                    let mut error = ShebangError::new(
                        format!(
                            "Unexpected flag in script shebang: `{flag}`; Redis knows {} \
                             (lowercase, comma-separated, no spaces)",
                            FLAGS.join(", ")
                        ),
                        span,
                    );
                    error.note = suggest(flag, FLAGS.iter().copied()).map(did_you_mean);
                    return Err(error);
                }
            }
        }
    }
    Ok(Some(Shebang { len, flags }))
}

/// Whether `server` goes on with a part after its closing quote
/// (`'a'b` is `ab`) rather than refusing the line.
fn continues_after_quote(server: Server) -> bool {
    server.profile().shebang.continues_after_quote
}

/// Whether `server` runs a script whose shebang names `engine` (`#!lua`).
fn accepts_engine(server: Server, engine: &str) -> bool {
    if server.profile().shebang.engine_any_case {
        engine.eq_ignore_ascii_case("#!lua")
    } else {
        engine == "#!lua"
    }
}

/// Splits as Redis's `sdssplitargs` does (`sds.c`), which every server uses
/// on the shebang line: parts are separated by whitespace; a part may hold
/// double-quoted text (with the escapes `\\n \\r \\t \\b \\a \\xHH`, and `\\`
/// before any other character for that character) or single-quoted text
/// (where only `\\'` is an escape), quotes removed. `None` where the server
/// fails to split: a quote left open, or (unless `continues`, as Valkey 9.1
/// splits) a closing quote followed by anything but whitespace.
fn split_args(line: &str, continues: bool) -> Option<Vec<(String, Span)>> {
    let bytes = line.as_bytes();
    // C reads past the end as the terminating NUL.
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let mut parts = Vec::new();
    let mut i = 0;
    loop {
        while is_c_space(at(i)) {
            i += 1;
        }
        if at(i) == 0 {
            return Some(parts);
        }
        let start = i;
        let mut text = Vec::new();
        let (mut in_double, mut in_single, mut done) = (false, false, false);
        while !done {
            let c = at(i);
            if in_double {
                if c == b'\\'
                    && at(i + 1) == b'x'
                    && let (Some(high), Some(low)) = (hex(at(i + 2)), hex(at(i + 3)))
                {
                    text.push(high * 16 + low);
                    i += 3;
                } else if c == b'\\' && at(i + 1) != 0 {
                    i += 1;
                    text.push(match at(i) {
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'b' => 0x08,
                        b'a' => 0x07,
                        other => other,
                    });
                } else if c == b'"' && continues {
                    in_double = false;
                } else if c == b'"' {
                    if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                        return None;
                    }
                    done = true;
                } else if c == 0 {
                    return None;
                } else {
                    text.push(c);
                }
            } else if in_single {
                if c == b'\\' && at(i + 1) == b'\'' {
                    i += 1;
                    text.push(b'\'');
                } else if c == b'\'' && continues {
                    in_single = false;
                } else if c == b'\'' {
                    if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                        return None;
                    }
                    done = true;
                } else if c == 0 {
                    return None;
                } else {
                    text.push(c);
                }
            } else {
                match c {
                    b' ' | b'\n' | b'\r' | b'\t' | 0 => done = true,
                    b'"' => in_double = true,
                    b'\'' => in_single = true,
                    _ => text.push(c),
                }
            }
            if at(i) != 0 {
                i += 1;
            }
        }
        let mut end = i;
        while end > start && is_c_space(bytes[end - 1]) {
            end -= 1;
        }
        parts.push((
            String::from_utf8_lossy(&text).into_owned(),
            Span::new(start, end),
        ));
    }
}

/// C's `isspace` in the C locale. (Between parts `sdssplitargs` skips all
/// of these, but only space, tab, CR and LF end a part.)
fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn hex(byte: u8) -> Option<u8> {
    (byte as char).to_digit(16).map(|digit| digit as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(source: &str) -> Result<Option<Shebang>, ShebangError> {
        super::parse(source, Servers::ALL)
    }

    fn flags(source: &str) -> Vec<&'static str> {
        parse(source).unwrap().unwrap().flags
    }

    fn error(source: &str) -> String {
        parse(source).unwrap_err().message
    }

    #[test]
    fn valkey_9_1_goes_on_after_a_closing_quote() {
        let valkey_9_1 = Servers::only(Server::Valkey9_1);
        for (line, flags) in [
            ("#!lua 'flags='no-writes\nreturn 1", vec!["no-writes"]),
            ("#!lua \"flags=no-\"'writes'\nreturn 1", vec!["no-writes"]),
            ("#!lua \"flags=no-writes\"\"\"\nreturn 1", vec!["no-writes"]),
        ] {
            let shebang = super::parse(line, valkey_9_1).unwrap().unwrap();
            assert_eq!(shebang.flags, flags, "{line}");
            // Redis and Valkey 8 refuse the line; 9.1 alone takes it.
            let error = parse(line).unwrap_err();
            assert!(error.message.starts_with("Invalid engine"), "{line}");
            assert_eq!(error.accepted_by, Some(valkey_9_1), "{line}");
        }
        // Still a part: a flag glued to the quote's end is one word.
        let error = super::parse("#!lua 'flags=no-writes'x\nreturn 1", valkey_9_1).unwrap_err();
        assert!(error.message.contains("`no-writesx`"), "{}", error.message);
        // A quote left open is refused everywhere.
        assert!(super::parse("#!lua 'flags=no-writes\nreturn 1", valkey_9_1).is_err());
    }

    #[test]
    fn reads_flags_as_redis_does() {
        assert_eq!(parse("return 1").unwrap(), None);
        assert_eq!(flags("#!lua\nreturn 1"), Vec::<&str>::new());
        assert_eq!(flags("#!lua flags=\nreturn 1"), Vec::<&str>::new());
        assert_eq!(
            flags("#!lua flags=no-writes,allow-oom\n"),
            ["no-writes", "allow-oom"]
        );
        assert_eq!(
            flags("#!lua flags=no-writes flags=allow-oom\n"),
            ["no-writes", "allow-oom"]
        );
        assert_eq!(
            flags("#!lua  \t flags=no-writes\r\nreturn 1"),
            ["no-writes"]
        );
        assert_eq!(flags("#!lua \"flags=no-writes\"\nreturn 1"), ["no-writes"]);
        assert!(
            parse("#!lua flags=no-writes\n")
                .unwrap()
                .unwrap()
                .is_read_only()
        );
        assert_eq!(parse("#!lua flags=allow-oom\nx").unwrap().unwrap().len, 21);
    }

    #[test]
    fn rejects_what_redis_rejects() {
        assert!(error("#!lua").starts_with("Invalid script shebang"));
        assert!(error("#!lua\0\nreturn 1").starts_with("Invalid script shebang"));
        assert!(error("#!LUA\n").starts_with("Unexpected engine"));
        assert!(error("#! lua\n").starts_with("Unexpected engine"));
        assert!(error("#!lua FLAGS=no-writes\n").starts_with("Unknown lua shebang option"));
        assert!(error("#!lua name=mylib\n").starts_with("Unknown lua shebang option"));
        assert!(error("#!lua flags=no-write\n").starts_with("Unexpected flag"));
        let note = |source: &str| parse(source).unwrap_err().note;
        assert_eq!(
            note("#!lua flags=no-writs\n").as_deref(),
            Some("did you mean `no-writes`?")
        );
        assert_eq!(
            note("#!lua flags=NO-WRITES\n").as_deref(),
            Some("did you mean `no-writes`?")
        );
        assert_eq!(note("#!lua flags=fast\n"), None);
        assert!(error("#!lua flags=NO-WRITES\n").starts_with("Unexpected flag"));
        assert!(error("#!lua flags=no-writes,\n").starts_with("Unexpected flag"));
        assert!(error("#!lua flags=no-writes, allow-oom\n").starts_with("Unexpected flag"));
    }

    #[test]
    fn splits_the_line_as_sdssplitargs_does() {
        // Quotes group, and lose their quotes; escapes in double quotes.
        assert_eq!(flags("#!lua 'flags=no-writes'\n"), ["no-writes"]);
        assert_eq!(flags("#!lua fl\"ags=no-writes\"\n"), ["no-writes"]);
        assert_eq!(flags("#!lua \"flags=no-\\x77rites\"\n"), ["no-writes"]);
        assert_eq!(flags("#!lua \"flags=no-\\writes\"\n"), ["no-writes"]);
        // A quote left open, or closed against the next character.
        for source in [
            "#!lua flags=no-wri\"tes\n",
            "#!lua 'flags=no-writes\n",
            "#!lua \"flags=no-writes\"x\n",
            "#!lua 'flags='no-writes\n",
            "#!LUA'\n",
        ] {
            assert!(error(source).starts_with("Invalid engine"), "{source:?}");
        }
        // Vertical tab and form feed separate nothing: part of the engine.
        assert!(error("#!lua\x0bflags=no-writes\n").starts_with("Unexpected engine"));
        assert!(error("#!lua\x0cflags=no-writes\n").starts_with("Unexpected engine"));
        // ... but are skipped between parts.
        assert_eq!(flags("#!lua \x0bflags=no-writes\n"), ["no-writes"]);
    }

    #[test]
    fn the_engine_in_any_case_only_on_valkey_8_1_and_later_alone() {
        let any_case = Servers::ALL.filter(|server| server.profile().shebang.engine_any_case);
        assert_eq!(
            any_case,
            Servers::only(Server::Valkey8_1).with(Server::Valkey9_1)
        );
        let valkey = |source| super::parse(source, any_case);
        let redis = |source| super::parse(source, Servers::only(Server::Redis7_0));
        for source in ["#!LUA\nreturn 1", "#!Lua flags=no-writes\nreturn 1"] {
            assert!(valkey(source).unwrap().is_some(), "{source}");
            let error = redis(source).unwrap_err();
            assert!(error.message.starts_with("Unexpected engine"), "{source}");
            assert_eq!(error.accepted_by, Some(any_case), "{source}");
            assert!(super::parse(source, Servers::only(Server::Valkey8_0)).is_err());
            for valkey in any_case.iter() {
                assert!(
                    super::parse(source, Servers::only(valkey)).is_ok(),
                    "{source}"
                );
            }
            assert!(parse(source).is_err(), "{source}");
        }
        assert!(
            valkey("#!LUA flags=no-writes\n")
                .unwrap()
                .unwrap()
                .is_read_only()
        );
        assert!(valkey("#!luajit\n").is_err());
        assert!(valkey("#! lua\n").is_err());
        // Where nothing takes it, no note.
        let error = parse("#!luajit\n").unwrap_err();
        assert_eq!((error.note, error.accepted_by), (None, None));
    }

    #[test]
    fn errors_point_at_the_offending_part() {
        let source = "#!lua flags=no-writes flags=fast\n";
        let span = parse(source).unwrap_err().span;
        assert_eq!(&source[span.start..span.end], "flags=fast");
    }
}
