//! The Redis 7 shebang: `#!lua flags=no-writes,allow-oom` on the first line.
//!
//! Follows Redis 7.0's `evalExtractShebangFlags`: the line is split into
//! whitespace-separated parts (quotes group), the first must be `#!lua`, every
//! other part must start with `flags=` (case-sensitive in 7.0), whose value is
//! a comma-separated list of exact flag names; several `flags=` parts add up.

use super::ast::Span;

/// The flags Redis 7 knows.
pub const FLAGS: &[&str] = &[
    "no-writes",
    "allow-oom",
    "allow-stale",
    "no-cluster",
    "allow-cross-slot-keys",
];

/// A script's shebang, when it has one.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
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

/// A shebang Redis rejects, in Redis's words, with the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShebangError {
    pub message: String,
    pub span: Span,
}

/// Reads the shebang at the start of `source`: `Ok(None)` when there is none.
pub fn parse(source: &str) -> Result<Option<Shebang>, ShebangError> {
    if !source.starts_with("#!") {
        return Ok(None);
    }
    let Some(len) = source.find('\n') else {
        return Err(ShebangError {
            message: "Invalid script shebang: the `#!lua` line needs a newline after it".into(),
            span: Span::new(0, source.len()),
        });
    };
    let parts = split_args(&source[..len]);
    let mut parts = parts.into_iter();
    match parts.next() {
        Some((engine, _)) if engine == "#!lua" => {}
        first => {
            let span = first.map_or(Span::new(0, 2), |(_, span)| span);
            return Err(ShebangError {
                message: "Unexpected engine in script shebang: Redis runs `#!lua` only".into(),
                span,
            });
        }
    }
    let mut flags = Vec::new();
    for (part, span) in parts {
        let Some(list) = part.strip_prefix("flags=") else {
            return Err(ShebangError {
                message: format!(
                    "Unknown lua shebang option `{part}`: the only option is `flags=` \
                     (e.g. `#!lua flags=no-writes`)"
                ),
                span,
            });
        };
        if list.is_empty() {
            continue;
        }
        for flag in list.split(',') {
            match FLAGS.iter().find(|known| **known == flag) {
                Some(known) if !flags.contains(known) => flags.push(*known),
                Some(_) => {}
                None => {
                    return Err(ShebangError {
                        message: format!(
                            "Unexpected flag in script shebang: `{flag}`; Redis knows {} \
                             (lowercase, comma-separated, no spaces)",
                            FLAGS.join(", ")
                        ),
                        span,
                    });
                }
            }
        }
    }
    Ok(Some(Shebang { len, flags }))
}

/// Splits like Redis's `sdssplitargs`, for what a shebang holds: runs of
/// non-whitespace, where a quoted run may contain spaces (quotes removed).
fn split_args(line: &str) -> Vec<(String, Span)> {
    let bytes = line.as_bytes();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let mut text = String::new();
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            let quote = bytes[i];
            if quote == b'"' || quote == b'\'' {
                let close = line[i + 1..]
                    .find(quote as char)
                    .map_or(bytes.len(), |at| i + 1 + at);
                text.push_str(&line[i + 1..close]);
                i = (close + 1).min(bytes.len());
            } else {
                let next =
                    line[i..].find(|c: char| c.is_ascii_whitespace() || c == '"' || c == '\'');
                let end = next.map_or(bytes.len(), |at| i + at);
                text.push_str(&line[i..end]);
                i = end;
            }
        }
        parts.push((text, Span::new(start, i)));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(source: &str) -> Vec<&'static str> {
        parse(source).unwrap().unwrap().flags
    }

    fn error(source: &str) -> String {
        parse(source).unwrap_err().message
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
        assert!(error("#!LUA\n").starts_with("Unexpected engine"));
        assert!(error("#! lua\n").starts_with("Unexpected engine"));
        assert!(error("#!lua FLAGS=no-writes\n").starts_with("Unknown lua shebang option"));
        assert!(error("#!lua name=mylib\n").starts_with("Unknown lua shebang option"));
        assert!(error("#!lua flags=no-write\n").starts_with("Unexpected flag"));
        assert!(error("#!lua flags=NO-WRITES\n").starts_with("Unexpected flag"));
        assert!(error("#!lua flags=no-writes,\n").starts_with("Unexpected flag"));
        assert!(error("#!lua flags=no-writes, allow-oom\n").starts_with("Unexpected flag"));
    }

    #[test]
    fn errors_point_at_the_offending_part() {
        let source = "#!lua flags=no-writes flags=fast\n";
        let span = parse(source).unwrap_err().span;
        assert_eq!(&source[span.start..span.end], "flags=fast");
    }
}
