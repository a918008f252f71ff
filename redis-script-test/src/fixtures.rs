//! Data a test starts from: a file of Redis commands, or a Lua script, run
//! on the test's server before the test.
//!
//! A file whose name ends in `.lua` is run as one script (`EVAL` with no
//! keys; on a cluster, use a file of commands). Any other file holds one
//! command per line, written as `redis-cli` reads them:
//!
//! ```text
//! # Lines that begin with `#` are comments; blank lines are skipped.
//! HSET user:1 name "Ada Lovelace" born 1815
//! SADD tags 'it\'s' "line\nbreak" "\x00"
//! ```
//!
//! Words are separated by spaces; a word in double quotes takes the
//! escapes `\"`, `\\`, `\n`, `\r`, `\t` and `\xHH`; in single quotes, only
//! `\'`.

use redis_script::redis;

/// Runs the fixture `text`, read from `name` (for messages and the choice
/// between Lua and commands), on `con`.
///
/// # Errors
///
/// A line that cannot be read, or a command or script the server refuses,
/// named by its file and line.
pub fn apply(con: &mut dyn redis::ConnectionLike, name: &str, text: &str) -> Result<(), String> {
    if name.ends_with(".lua") {
        return redis::cmd("EVAL")
            .arg(text)
            .arg(0)
            .exec(con)
            .map_err(|e| format!("fixture {name}: the script failed: {e}"));
    }
    for (index, line) in text.lines().enumerate() {
        let at = || format!("fixture {name}:{}", index + 1);
        let words = words(line).map_err(|why| format!("{}: {why}", at()))?;
        let Some((command, args)) = words.split_first() else {
            continue;
        };
        let mut cmd = redis::cmd(&String::from_utf8_lossy(command));
        for arg in args {
            cmd.arg(arg.as_slice());
        }
        cmd.exec(con)
            .map_err(|e| format!("{}: `{}` failed: {e}", at(), line.trim()))?;
    }
    Ok(())
}

/// The words of one line; none for a blank line or a comment.
fn words(line: &str) -> Result<Vec<Vec<u8>>, String> {
    let line = line.trim();
    if line.starts_with('#') {
        return Ok(Vec::new());
    }
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&first) = chars.peek() else {
            return Ok(words);
        };
        let mut word = Vec::new();
        if first == '"' || first == '\'' {
            chars.next();
            quoted(&mut chars, first, &mut word)?;
            if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                return Err("a closing quote must be followed by a space".to_owned());
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                push_char(&mut word, c);
            }
        }
        words.push(word);
    }
}

/// The rest of a word opened by `quote`, up to and without its closing one.
fn quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    quote: char,
    word: &mut Vec<u8>,
) -> Result<(), String> {
    while let Some(c) = chars.next() {
        match (c, quote) {
            (c, _) if c == quote => return Ok(()),
            ('\\', '\'') => match chars.next_if_eq(&'\'') {
                Some(_) => word.push(b'\''),
                None => word.push(b'\\'),
            },
            ('\\', _) => word.push(escape(chars)?),
            (c, _) => push_char(word, c),
        }
    }
    Err(format!("unbalanced {quote} quote"))
}

/// The byte of a double-quoted escape, after its backslash.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<u8, String> {
    match chars.next() {
        Some('n') => Ok(b'\n'),
        Some('r') => Ok(b'\r'),
        Some('t') => Ok(b'\t'),
        Some('b') => Ok(0x08),
        Some('a') => Ok(0x07),
        Some('x') => {
            let hex: String = chars.take(2).collect();
            u8::from_str_radix(&hex, 16)
                .ok()
                .filter(|_| hex.len() == 2)
                .ok_or_else(|| format!("`\\x{hex}` is not two hexadecimal digits"))
        }
        Some(c) if c.is_ascii() => Ok(c as u8),
        Some(c) => Err(format!("`\\{c}` escapes a character that is not ASCII")),
        None => Err("a backslash ends the line".to_owned()),
    }
}

fn push_char(word: &mut Vec<u8>, c: char) {
    word.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::words;

    fn read(line: &str) -> Vec<String> {
        words(line)
            .unwrap()
            .into_iter()
            .map(|word| String::from_utf8(word).unwrap())
            .collect()
    }

    #[test]
    fn words_are_read_as_redis_cli_reads_them() {
        assert_eq!(read("  SET k v  "), ["SET", "k", "v"]);
        assert_eq!(read("# SET k v"), Vec::<String>::new());
        assert_eq!(read(""), Vec::<String>::new());
        assert_eq!(
            read(r#"HSET "user 1" name "Ada \"A\" L\x41" note 'it\'s \n'"#),
            ["HSET", "user 1", "name", "Ada \"A\" LA", "note", "it's \\n"]
        );
        assert_eq!(read("SET k \"\""), ["SET", "k", ""]);
        assert_eq!(read("SET k café"), ["SET", "k", "café"]);
    }

    #[test]
    fn a_line_that_cannot_be_read_says_why() {
        assert_eq!(words("SET k \"v").unwrap_err(), "unbalanced \" quote");
        assert_eq!(
            words("SET k \"v\"w").unwrap_err(),
            "a closing quote must be followed by a space"
        );
        assert_eq!(
            words(r#"SET k "\xZZ""#).unwrap_err(),
            "`\\xZZ` is not two hexadecimal digits"
        );
    }
}
