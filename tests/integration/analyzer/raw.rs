//! A minimal RESP client for the differential tests: commands sent raw and
//! pipelined, replies read as OK or an error line. An error message may
//! hold bytes that are not UTF-8 (Lua quotes the first byte of a non-ASCII
//! character), which `redis-rs` cannot parse.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

pub(super) struct Resp {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Resp {
    pub(super) fn new(stream: TcpStream) -> Resp {
        let reader = BufReader::new(stream.try_clone().expect("clone the socket"));
        Resp {
            writer: stream,
            reader,
        }
    }

    /// Loads the scripts in one round trip, then flushes the script cache;
    /// for each, `Ok` or the error line (without `-ERR `).
    pub(super) fn script_load_all<'s>(
        &mut self,
        sources: impl Iterator<Item = &'s str>,
    ) -> Vec<Result<(), String>> {
        let commands: Vec<Vec<&[u8]>> = sources
            .map(|source| vec![&b"SCRIPT"[..], b"LOAD", source.as_bytes()])
            .collect();
        self.run_then(&commands, &[b"SCRIPT", b"FLUSH"])
    }

    /// Runs each script with `EVAL <script> 0` on an empty database (a
    /// FLUSHALL before each), in one round trip, then flushes the script
    /// cache; for each, `Ok` or the error line (without `-ERR `).
    pub(super) fn eval_each_on_empty<'s>(
        &mut self,
        sources: impl Iterator<Item = &'s str>,
    ) -> Vec<Result<(), String>> {
        let mut out = Vec::new();
        let mut count = 0;
        for source in sources {
            command(&mut out, &[b"FLUSHALL"]);
            command(&mut out, &[b"EVAL", source.as_bytes(), b"0"]);
            count += 1;
        }
        command(&mut out, &[b"SCRIPT", b"FLUSH"]);
        self.writer.write_all(&out).expect("send to the server");
        let replies = (0..count)
            .map(|_| {
                assert_eq!(self.reply(), Ok(()), "FLUSHALL");
                self.reply()
            })
            .collect();
        assert_eq!(self.reply(), Ok(()), "SCRIPT FLUSH");
        replies
    }

    /// Sends `commands` and then `last` in one round trip; the replies to
    /// `commands` (`last` must succeed).
    fn run_then(&mut self, commands: &[Vec<&[u8]>], last: &[&[u8]]) -> Vec<Result<(), String>> {
        let mut out = Vec::new();
        for args in commands {
            command(&mut out, args);
        }
        command(&mut out, last);
        self.writer.write_all(&out).expect("send to the server");
        let replies = commands.iter().map(|_| self.reply()).collect();
        assert_eq!(self.reply(), Ok(()), "{last:?}");
        replies
    }

    /// One reply: a bulk string, a status or an integer is `Ok`, an error
    /// its line.
    fn reply(&mut self) -> Result<(), String> {
        // Up to CRLF: an error line may hold a bare LF (Redis 7.0 and Valkey
        // 8.1 and 9.1 quote a shebang flag as written, escapes resolved).
        let mut line = Vec::new();
        while !line.ends_with(b"\r\n") {
            let read = self
                .reader
                .read_until(b'\n', &mut line)
                .expect("read from the server");
            assert!(read > 0, "the server closed the connection");
        }
        let body = line
            .strip_suffix(b"\r\n")
            .unwrap_or_else(|| panic!("truncated reply {line:?}"));
        match body.first() {
            Some(b'$') => {
                let len: usize = std::str::from_utf8(&body[1..])
                    .ok()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("bad bulk length {body:?}"));
                let mut value = vec![0; len + 2];
                self.reader
                    .read_exact(&mut value)
                    .expect("read from the server");
                Ok(())
            }
            Some(b'+' | b':') => Ok(()),
            Some(b'-') => {
                let message = String::from_utf8_lossy(&body[1..]);
                Err(message.strip_prefix("ERR ").unwrap_or(&message).to_owned())
            }
            _ => panic!("unexpected reply {line:?}"),
        }
    }
}

fn command(out: &mut Vec<u8>, args: &[&[u8]]) {
    out.extend_from_slice(format!("*{}\r\n", args.len()).as_bytes());
    for arg in args {
        out.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
        out.extend_from_slice(arg);
        out.extend_from_slice(b"\r\n");
    }
}
