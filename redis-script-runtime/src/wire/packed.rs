//! A script call packed in RESP once, as it goes on the wire.
//!
//! redis-rs's `Cmd` keeps its arguments in two buffers and packs them into a
//! third on every send. A call packs its arguments here instead, straight
//! into the one buffer that a sync connection then sends as it is
//! (`ConnectionLike::req_packed_command`); other forms of the call (EVAL, a
//! `Cmd` for async connections and pipelines) are built from its packed
//! arguments only when needed.

use std::io;

use redis::{Cmd, Pipeline, RedisWrite};

/// The longest RESP length line, `*N\r\n` or `$N\r\n`: the marker, the 20
/// digits of a 64-bit `usize::MAX` and CRLF.
const LINE_MAX: usize = 1 + 20 + 2;

/// A command packed in RESP that grows by whole arguments, and is ready to
/// send after each.
///
/// `buf` holds, in order: room for the `*N\r\n` count of the command, which
/// sits right-aligned in it from `start`; the bulk strings of the head
/// (`EVALSHA sha1`); and from `tail` those of the arguments written since
/// (numkeys, keys, args). `buf[start..]` is the whole command.
pub(crate) struct Packed {
    buf: Vec<u8>,
    start: usize,
    tail: usize,
    /// How many arguments the head has.
    head_args: usize,
    /// How many bulk strings the tail holds.
    values: usize,
    /// The bytes of those values, without RESP's framing.
    data: usize,
}

impl Packed {
    /// A command of the arguments `head`, with room for `tail_bytes` more
    /// bytes of arguments before the buffer grows.
    pub(crate) fn new(head: &[&[u8]], tail_bytes: usize) -> Packed {
        let mut buf = Vec::with_capacity(LINE_MAX + bulks_len(head) + tail_bytes);
        buf.extend_from_slice(&[0; LINE_MAX]);
        push_bulks(&mut buf, head);
        let mut packed = Packed {
            tail: buf.len(),
            buf,
            start: LINE_MAX,
            head_args: head.len(),
            values: 0,
            data: 0,
        };
        packed.write_count();
        packed
    }

    /// Counts one more value in the tail.
    ///
    /// Its count is rewritten at once, in the few bytes before the head,
    /// rather than in a final step that a caller could miss: the command is
    /// always whole, so it can be sent from `&self`.
    fn value_written(&mut self, data: usize) {
        self.values += 1;
        self.data += data;
        self.write_count();
    }

    fn write_count(&mut self) {
        let count = self.head_args + self.values;
        self.start = LINE_MAX - line_len(count);
        write_line(&mut self.buf[self.start..LINE_MAX], b'*', count);
    }

    /// How many values the arguments written so far encoded to.
    pub(crate) fn values(&self) -> usize {
        self.values
    }

    /// Rewrites the first value written after the head as the decimal
    /// number `n`, moving the values after it: a call's numkeys, once its
    /// variadic keys are counted. Does nothing if no value was written.
    pub(crate) fn set_first_number(&mut self, n: usize) {
        let Some(old_data) = bulk_strings(&self.buf[self.tail..]).next().map(<[u8]>::len) else {
            return;
        };
        let mut number = [0; LINE_MAX];
        let number = &mut number[..line_len(n)];
        write_line(number, b':', n);
        let digits = &number[1..number.len() - 2];
        let mut bulk = [0; 2 * LINE_MAX];
        let line = line_len(digits.len());
        write_line(&mut bulk[..line], b'$', digits.len());
        bulk[line..line + digits.len()].copy_from_slice(digits);
        let new_len = line + digits.len() + 2;
        bulk[new_len - 2..new_len].copy_from_slice(b"\r\n");

        let (at, old_end) = (self.tail, self.tail + bulk_len(old_data));
        let end = self.buf.len();
        let new_end = at + new_len;
        if new_end > old_end {
            self.buf.resize(end + (new_end - old_end), 0);
            self.buf.copy_within(old_end..end, new_end);
        } else {
            self.buf.copy_within(old_end..end, new_end);
            self.buf.truncate(end - (old_end - new_end));
        }
        self.buf[at..new_end].copy_from_slice(&bulk[..new_len]);
        self.data = self.data - old_data + digits.len();
    }

    /// The whole command, ready to send.
    pub(crate) fn command(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// The bytes of the values written after the head, as packed.
    pub(crate) fn tail_bytes(&self) -> usize {
        self.buf.len() - self.tail
    }

    /// The values written after the head, in order.
    pub(crate) fn tail_values(&self) -> impl Clone + Iterator<Item = &[u8]> {
        bulk_strings(&self.buf[self.tail..])
    }

    /// The arguments written after the head, behind another head: `EVAL
    /// source` for `EVALSHA sha1`, packed with nothing left to grow.
    pub(crate) fn with_head(&self, head: &[&[u8]]) -> Vec<u8> {
        let tail = &self.buf[self.tail..];
        let mut bytes = pack_head(head, head.len() + self.values, tail.len());
        bytes.extend_from_slice(tail);
        bytes
    }

    /// The same as [`with_head`](Self::with_head), as a redis-rs `Cmd`, for
    /// the APIs that take one (async connections, pipelines); its buffers
    /// are sized exactly.
    pub(crate) fn to_cmd(&self, head: &[&[u8]]) -> Cmd {
        let head_data: usize = head.iter().map(|arg| arg.len()).sum();
        let mut cmd = Cmd::with_capacity(head.len() + self.values, head_data + self.data);
        for arg in head.iter().copied().chain(self.tail_values()) {
            cmd.arg(arg);
        }
        cmd
    }

    /// Queues in `pipe` the command `command first` followed by the
    /// arguments written after the head, as [`to_cmd`](Self::to_cmd) builds
    /// it.
    pub(crate) fn queue_in(&self, pipe: &mut Pipeline, command: &'static str, first: &[u8]) {
        #[cfg(not(feature = "redis-2"))]
        pipe.add_command(self.to_cmd(&[command.as_bytes(), first]));
        // redis-rs 2.0 packs a pipeline's commands into one buffer, which
        // `add_command` copies a `Cmd` into: written there directly, the call
        // builds no `Cmd` (in 1.x a pipeline holds `Cmd`s, sized exactly by
        // `to_cmd`).
        #[cfg(feature = "redis-2")]
        {
            pipe.cmd(command).arg(first);
            for value in self.tail_values() {
                pipe.arg(value);
            }
        }
    }
}

/// `args` packed as one command, with room for `more` bytes after it.
pub(crate) fn pack(args: &[&[u8]], more: usize) -> Vec<u8> {
    pack_head(args, args.len(), more)
}

/// `*count` and the bulk strings of `head`, in a buffer with room for
/// `more` bytes after them.
fn pack_head(head: &[&[u8]], count: usize, more: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(line_len(count) + bulks_len(head) + more);
    push_line(&mut bytes, b'*', count);
    push_bulks(&mut bytes, head);
    bytes
}

/// Arguments are appended as RESP bulk strings, and counted.
impl RedisWrite for Packed {
    fn write_arg(&mut self, arg: &[u8]) {
        push_bulk(&mut self.buf, arg);
        self.value_written(arg.len());
    }

    fn write_arg_fmt(&mut self, arg: impl std::fmt::Display) {
        use std::io::Write as _;
        // Formatted straight into the buffer, without a String in between.
        // Writing into a Vec cannot fail; should a Display impl fail, the
        // value keeps what it wrote (redis-rs's `to_string` would panic).
        let _ = write!(self.writer_for_next_arg(), "{arg}");
    }

    fn writer_for_next_arg(&mut self) -> impl io::Write + '_ {
        ArgWriter::new(self)
    }

    fn reserve_space_for_args(&mut self, additional: impl IntoIterator<Item = usize>) {
        let bytes: usize = additional.into_iter().map(bulk_len).sum();
        self.buf.reserve(bytes);
    }
}

/// Writes one argument of unknown length into the buffer, behind room for
/// the longest `$len\r\n` line; dropped, it writes the real line and moves
/// the data next to it.
struct ArgWriter<'a> {
    packed: &'a mut Packed,
    line_at: usize,
}

impl<'a> ArgWriter<'a> {
    fn new(packed: &'a mut Packed) -> ArgWriter<'a> {
        let line_at = packed.buf.len();
        packed.buf.extend_from_slice(&[0; LINE_MAX]);
        ArgWriter { packed, line_at }
    }
}

impl io::Write for ArgWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.packed.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for ArgWriter<'_> {
    fn drop(&mut self) {
        let buf = &mut self.packed.buf;
        let data_at = self.line_at + LINE_MAX;
        let data_len = buf.len() - data_at;
        let line_end = self.line_at + line_len(data_len);
        write_line(&mut buf[self.line_at..line_end], b'$', data_len);
        buf.copy_within(data_at.., line_end);
        buf.truncate(line_end + data_len);
        buf.extend_from_slice(b"\r\n");
        self.packed.value_written(data_len);
    }
}

/// The size of the RESP line `*N\r\n` (or `$N\r\n`) for `n`.
fn line_len(n: usize) -> usize {
    // Branches for the usual small numbers (`ilog10` costs more here).
    let digits = match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        _ => {
            let mut digits = 4;
            let mut rest = n / 10_000;
            while rest > 0 {
                rest /= 10;
                digits += 1;
            }
            digits
        }
    };
    1 + digits + 2
}

/// Writes the line `{marker}{n}\r\n` into `out`, which is `line_len(n)`
/// bytes long: the digits without leading zeros, as RESP requires.
fn write_line(out: &mut [u8], marker: u8, mut n: usize) {
    let crlf = out.len() - 2;
    out[0] = marker;
    for digit in out[1..crlf].iter_mut().rev() {
        *digit = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out[crlf..].copy_from_slice(b"\r\n");
}

fn push_line(buf: &mut Vec<u8>, marker: u8, n: usize) {
    // Most lines (counts, keys, numbers, tokens) have one or two digits:
    // fixed-size copies, which compile to a few stores.
    let digit = |n: usize| b'0' + (n % 10) as u8;
    if n < 10 {
        buf.extend_from_slice(&[marker, digit(n), b'\r', b'\n']);
    } else if n < 100 {
        buf.extend_from_slice(&[marker, digit(n / 10), digit(n), b'\r', b'\n']);
    } else {
        let mut line = [0; LINE_MAX];
        let line = &mut line[..line_len(n)];
        write_line(line, marker, n);
        buf.extend_from_slice(line);
    }
}

/// The packed size of a bulk string of `len` bytes.
fn bulk_len(len: usize) -> usize {
    line_len(len) + len + 2
}

/// The packed size of the bulk strings of `args`.
fn bulks_len(args: &[&[u8]]) -> usize {
    args.iter().map(|arg| bulk_len(arg.len())).sum()
}

fn push_bulks(buf: &mut Vec<u8>, args: &[&[u8]]) {
    for arg in args {
        push_bulk(buf, arg);
    }
}

fn push_bulk(buf: &mut Vec<u8>, bytes: &[u8]) {
    push_line(buf, b'$', bytes.len());
    buf.extend_from_slice(bytes);
    buf.extend_from_slice(b"\r\n");
}

/// The bulk strings packed in `bytes`; stops at anything else.
fn bulk_strings(mut bytes: &[u8]) -> impl Clone + Iterator<Item = &[u8]> {
    std::iter::from_fn(move || {
        let line = bytes.strip_prefix(b"$")?;
        let digits_len = line.iter().position(|&byte| byte == b'\r')?;
        let len = line[..digits_len].iter().try_fold(0usize, |len, &digit| {
            let digit = digit.is_ascii_digit().then(|| usize::from(digit - b'0'))?;
            len.checked_mul(10)?.checked_add(digit)
        })?;
        let data_at = digits_len + 2;
        let data_end = data_at.checked_add(len)?;
        let data = line.get(data_at..data_end)?;
        bytes = line.get(data_end + 2..)?;
        Some(data)
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use redis::{Arg, ToRedisArgs};

    use super::*;

    /// Writes itself in each of the ways `RedisWrite` offers, as a value of
    /// any type may: six values.
    struct EveryWay;

    impl ToRedisArgs for EveryWay {
        fn write_redis_args<W: ?Sized + RedisWrite>(&self, out: &mut W) {
            out.reserve_space_for_args([5, 0]);
            out.write_arg(b"plain");
            out.write_arg(b"");
            out.write_arg_fmt(1234567890);
            out.write_arg_fmt(format_args!("{}-{}", "a", 1.5));
            out.writer_for_next_arg().write_all(&[b'x'; 300]).unwrap();
            drop(out.writer_for_next_arg());
        }
    }

    fn args_of(cmd: &Cmd) -> Vec<&[u8]> {
        cmd.args_iter()
            .map(|arg| match arg {
                Arg::Simple(bytes) => bytes,
                _ => unreachable!("no cursor"),
            })
            .collect()
    }

    #[test]
    fn every_way_of_writing_packs_as_redis_rs_does() {
        let head: [&[u8]; 2] = [b"EVALSHA", b"0123"];
        let mut packed = Packed::new(&head, 0);
        let mut cmd = Cmd::new();
        cmd.arg("EVALSHA").arg("0123");
        assert_eq!(packed.command(), cmd.get_packed_command());
        // Across the counts 9 -> 10 and 99 -> 100, whose lines grow.
        for _ in 0..20 {
            EveryWay.write_redis_args(&mut packed);
            cmd.arg(EveryWay);
            assert_eq!(packed.command(), cmd.get_packed_command());
        }
        assert_eq!(packed.values(), 120);
        let tail: Vec<&[u8]> = packed.tail_values().collect();
        assert_eq!(tail, args_of(&cmd)[2..]);

        let eval: [&[u8]; 2] = [b"EVAL", b"return 1"];
        let mut eval_cmd = Cmd::new();
        eval_cmd.arg(eval[0]).arg(eval[1]);
        for value in &tail {
            eval_cmd.arg(*value);
        }
        assert_eq!(packed.with_head(&eval), eval_cmd.get_packed_command());
        assert_eq!(args_of(&packed.to_cmd(&eval)), args_of(&eval_cmd));
    }

    #[test]
    fn the_first_value_is_rewritten_as_a_number_of_any_length() {
        let head: [&[u8]; 2] = [b"EVALSHA", b"0123"];
        let mut packed = Packed::new(&head, 0);
        1usize.write_redis_args(&mut packed);
        "fixed".write_redis_args(&mut packed);
        let mut expected = Cmd::new();
        expected.arg("EVALSHA").arg("0123");
        // Longer (1 -> 12 -> 123456), shorter (-> 7) and the same length.
        for n in [12usize, 123_456, 7, 8] {
            packed.set_first_number(n);
            let mut cmd = expected.clone();
            cmd.arg(n).arg("fixed");
            assert_eq!(packed.command(), cmd.get_packed_command(), "{n}");
            assert_eq!(packed.values(), 2);
            assert_eq!(args_of(&packed.to_cmd(&head)), args_of(&cmd));
        }
        let mut empty = Packed::new(&head, 0);
        empty.set_first_number(3);
        assert_eq!(empty.values(), 0);
    }

    #[test]
    fn length_lines_have_no_leading_zeros() {
        let line = |marker, n| {
            let mut buf = Vec::new();
            push_line(&mut buf, marker, n);
            String::from_utf8(buf).unwrap()
        };
        for n in [0, 9, 10, 99, 100, 4096, usize::MAX] {
            assert_eq!(line(b'*', n), format!("*{n}\r\n"));
        }
        assert_eq!(line(b'$', 12), "$12\r\n");
    }

    #[test]
    fn reading_stops_at_anything_but_a_bulk_string() {
        let values: Vec<&[u8]> = bulk_strings(b"$1\r\na\r\n$0\r\n\r\n:1\r\n").collect();
        assert_eq!(values, [b"a".as_slice(), b""]);
        assert_eq!(bulk_strings(b"$5\r\nab\r\n").count(), 0);
    }
}
