//! fred's clients as a transport of calls and batches, beside redis-rs's
//! connections: the same commands, sent with fred's `custom_raw` (a call)
//! or in a fred `Pipeline` (a batch), and what comes back read into
//! redis-rs's `Value` and `RedisError`, which the calls' recovery, reply
//! conversion and errors already read. Nothing here decides anything: the
//! invocation and the batch do, by `recovery`'s plans, as for redis-rs.
//!
//! Routing: every command names the hash slot of its call's first key
//! (`ClusterHash::Custom`), so a clustered fred client sends a call, and the
//! load that recovers it, to the node that owns its keys; a keyless call
//! takes a slot of its own, the same for its recovery.

use std::io;
use std::sync::atomic::{AtomicU16, Ordering};

use fred::error::{Error as FredError, ErrorKind as FredErrorKind};
use fred::interfaces::ClientLike;
use fred::types::{ClusterHash, CustomCommand, Resp3Frame, Value as FredValue};
use redis::{RedisError, RedisResult, Value};

use crate::wire::slot::SLOTS;

/// Where a call's commands go on a clustered client: the slot of its first
/// key, or for a call without keys a slot picked in turn, so that keyless
/// calls spread over the nodes and each one's recovery reaches the node
/// its call went to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Route(u16);

impl Route {
    /// The route of a call (or batch) whose first key is in `first_slot`.
    pub(crate) fn at(first_slot: Option<u16>) -> Route {
        static NEXT_KEYLESS: AtomicU16 = AtomicU16::new(0);
        match first_slot {
            Some(slot) => Route(slot),
            // A stride prime to the slot count visits every slot.
            None => Route(NEXT_KEYLESS.fetch_add(7_919, Ordering::Relaxed) % SLOTS),
        }
    }

    fn hash(self) -> ClusterHash {
        ClusterHash::Custom(self.0)
    }
}

/// The database index of `client`'s configuration, for a call's span.
pub(crate) fn database(client: &impl ClientLike) -> i64 {
    client.client_config().database.map_or(0, i64::from)
}

/// Sends one command, `command` then `args`, and reads its reply: an error
/// reply as `Value::ServerError`, as redis-rs's `req_packed_command` gives it.
pub(crate) async fn send<'a>(
    client: &impl ClientLike,
    route: Route,
    command: &'static [u8],
    args: impl IntoIterator<Item = &'a [u8]>,
) -> RedisResult<Value> {
    let command = custom_command(command, route)?;
    let args: Vec<FredValue> = args.into_iter().map(argument).collect();
    match client.custom_raw(command, args).await {
        Ok(frame) => Ok(frame_to_value(frame)),
        Err(error) => Err(to_redis_error(&error)),
    }
}

/// Runs `commands` (each its name then its arguments) in one fred pipeline,
/// inside `MULTI`/`EXEC` when `atomic`, every one routed by `route`; the
/// replies as a redis-rs pipeline gives them from offset 0 (MULTI's, each
/// command's, EXEC's), error replies as values. A failure of the whole
/// pipeline (the connection) is the `Err`.
pub(crate) async fn run_pipeline<'a, C, I>(
    client: &C,
    route: Route,
    commands: impl IntoIterator<Item = I>,
    atomic: bool,
) -> RedisResult<Vec<Value>>
where
    C: ClientLike,
    I: IntoIterator<Item = &'a [u8]>,
{
    // fred's own `Pipeline` over a clone of the client (a handle): the one
    // constructor generic over `ClientLike`, `Client` and `Pool` alike.
    let pipeline = fred::clients::Pipeline::from(client.clone());
    let mut queued = Vec::new();
    if atomic {
        queued.push((custom_command(b"MULTI", route)?, Vec::new()));
    }
    for command in commands {
        let mut parts = command.into_iter();
        let name = parts.next().unwrap_or_default();
        let name = custom_command_owned(name, route)?;
        queued.push((name, parts.map(argument).collect()));
    }
    if atomic {
        queued.push((custom_command(b"EXEC", route)?, Vec::new()));
    }
    for (command, args) in queued {
        // A pipeline answers `QUEUED` at once; the replies come from `try_all`.
        let _: FredValue = pipeline
            .custom(command, args)
            .await
            .map_err(|error| to_redis_error(&error))?;
    }
    let mut replies = Vec::new();
    for reply in pipeline.try_all::<FredValue>().await {
        match reply {
            Ok(value) => replies.push(fred_value_to_value(value)),
            Err(error) => match server_error(&error) {
                Some(server_error) => replies.push(Value::ServerError(server_error)),
                // No reply: the connection failed, or the pipeline timed out.
                None => return Err(to_redis_error(&error)),
            },
        }
    }
    if atomic {
        exec_read_whole(&replies)?;
    }
    Ok(replies)
}

/// fred reads EXEC's reply as one value, and makes it an error, the first
/// call's error, when any call inside failed: the other calls' replies are
/// lost, and which call failed is unknown. Only EXECABORT (nothing ran) is
/// EXEC's own error; any other means the calls ran and one failed.
fn exec_read_whole(replies: &[Value]) -> RedisResult<()> {
    match replies.last() {
        Some(Value::ServerError(error)) if error.code() != "EXECABORT" => Err(RedisError::from((
            redis::ErrorKind::UnexpectedReturnType,
            "the transaction ran, but a call in it failed, and fred gives EXEC's replies \
                 only as a whole: no call's own reply is known",
            format!("{}: {}", error.code(), error.details().unwrap_or_default()),
        ))),
        _ => Ok(()),
    }
}

fn custom_command(name: &'static [u8], route: Route) -> RedisResult<CustomCommand> {
    match std::str::from_utf8(name) {
        Ok(name) => Ok(CustomCommand::new_static(name, route.hash(), false)),
        Err(_) => Err(not_a_command_name()),
    }
}

fn custom_command_owned(name: &[u8], route: Route) -> RedisResult<CustomCommand> {
    match std::str::from_utf8(name) {
        Ok(name) => Ok(CustomCommand::new(name.to_owned(), route.hash(), false)),
        Err(_) => Err(not_a_command_name()),
    }
}

fn not_a_command_name() -> RedisError {
    RedisError::from((redis::ErrorKind::Client, "a command name is not UTF-8"))
}

fn argument(value: &[u8]) -> FredValue {
    FredValue::Bytes(value.to_vec().into())
}

/// A reply frame as redis-rs reads the same reply (`fred` hands RESP2
/// replies over as RESP3 frames already): every kind kept, error replies as
/// `ServerError` values at any depth, `+OK` as `Okay`. Maps and sets come in
/// fred's hashing order.
pub(crate) fn frame_to_value(frame: Resp3Frame) -> Value {
    let (value, attributes) = match frame {
        Resp3Frame::Null => (Value::Nil, None),
        Resp3Frame::Number { data, attributes } => (Value::Int(data), attributes),
        Resp3Frame::Double { data, attributes } => (Value::Double(data), attributes),
        Resp3Frame::Boolean { data, attributes } => (Value::Boolean(data), attributes),
        Resp3Frame::BlobString { data, attributes } => {
            (Value::BulkString(data.to_vec()), attributes)
        }
        Resp3Frame::ChunkedString(data) => (Value::BulkString(data.to_vec()), None),
        Resp3Frame::SimpleString { data, attributes } => (simple_string(&data), attributes),
        Resp3Frame::SimpleError { data, attributes } => (error_value(&data), attributes),
        Resp3Frame::BlobError { data, attributes } => {
            (error_value(&String::from_utf8_lossy(&data)), attributes)
        }
        Resp3Frame::BigNumber { data, attributes } => (big_number(&data), attributes),
        Resp3Frame::VerbatimString {
            data,
            format,
            attributes,
        } => {
            // fred does not re-export the format's type: told by its name.
            let format = match format!("{format:?}").as_str() {
                "Markdown" => redis::VerbatimFormat::Markdown,
                _ => redis::VerbatimFormat::Text,
            };
            let text = String::from_utf8_lossy(&data).into_owned();
            (Value::VerbatimString { format, text }, attributes)
        }
        Resp3Frame::Array { data, attributes } => (Value::Array(frames(data)), attributes),
        Resp3Frame::Set { data, attributes } => (Value::Set(frames(data)), attributes),
        Resp3Frame::Push { data, attributes } => (
            Value::Push {
                kind: redis::PushKind::Other(String::new()),
                data: frames(data),
            },
            attributes,
        ),
        Resp3Frame::Map { data, attributes } => (Value::Map(pairs(data)), attributes),
        // A client's handshake, never a reply to a command.
        Resp3Frame::Hello { .. } => (Value::Nil, None),
    };
    match attributes {
        Some(attributes) if !attributes.is_empty() => Value::Attribute {
            data: Box::new(value),
            attributes: pairs(attributes),
        },
        _ => value,
    }
}

fn frames(frames: impl IntoIterator<Item = Resp3Frame>) -> Vec<Value> {
    frames.into_iter().map(frame_to_value).collect()
}

fn pairs(pairs: impl IntoIterator<Item = (Resp3Frame, Resp3Frame)>) -> Vec<(Value, Value)> {
    pairs
        .into_iter()
        .map(|(key, value)| (frame_to_value(key), frame_to_value(value)))
        .collect()
}

fn simple_string(data: &[u8]) -> Value {
    match data {
        b"OK" => Value::Okay,
        _ => Value::SimpleString(String::from_utf8_lossy(data).into_owned()),
    }
}

/// A big number as redis-rs reads one: a `BigInt` or its digits, as
/// redis-rs's own features choose; its digits as text if they do not parse.
fn big_number(digits: &[u8]) -> Value {
    let mut resp = Vec::with_capacity(digits.len() + 3);
    resp.push(b'(');
    resp.extend_from_slice(digits);
    resp.extend_from_slice(b"\r\n");
    redis::parse_redis_value(&resp).unwrap_or_else(|_| Value::BulkString(digits.to_vec()))
}

/// An error reply's text (`CODE message`) as redis-rs's error value.
fn error_value(text: &str) -> Value {
    match parse_server_error(text) {
        Some(error) => Value::ServerError(error),
        None => Value::BulkString(text.as_bytes().to_vec()),
    }
}

/// `text` read as an error reply by redis-rs's own parser, which splits
/// the code from the message exactly as it does for its connections.
fn parse_server_error(text: &str) -> Option<redis::ServerError> {
    // One line, as the server sends it.
    let line: String = text
        .chars()
        .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
        .collect();
    match redis::parse_redis_value(format!("-{line}\r\n").as_bytes()) {
        Ok(Value::ServerError(error)) => Some(error),
        _ => None,
    }
}

/// A value of fred's, as read from a pipeline's reply (fred gives nothing
/// rawer there), as redis-rs's `Value`: `Null` as `Nil`, integers, doubles,
/// booleans, strings and bytes as bulk strings (fred does not tell `+OK`
/// from a bulk string, nor a set from an array), arrays and maps (in fred's
/// hashing order), `QUEUED` as its status.
pub(crate) fn fred_value_to_value(value: FredValue) -> Value {
    match value {
        FredValue::Null => Value::Nil,
        FredValue::Integer(number) => Value::Int(number),
        FredValue::Double(number) => Value::Double(number),
        FredValue::Boolean(boolean) => Value::Boolean(boolean),
        FredValue::String(text) => Value::BulkString(text.as_bytes().to_vec()),
        FredValue::Bytes(bytes) => Value::BulkString(bytes.to_vec()),
        FredValue::Queued => Value::SimpleString("QUEUED".to_owned()),
        FredValue::Array(items) => {
            Value::Array(items.into_iter().map(fred_value_to_value).collect())
        }
        FredValue::Map(map) => Value::Map(
            map.inner()
                .into_iter()
                .map(|(key, value)| {
                    (
                        Value::BulkString(key.as_bytes().to_vec()),
                        fred_value_to_value(value),
                    )
                })
                .collect(),
        ),
    }
}

/// fred's error, if it is the server's error reply: fred keeps the reply's
/// whole text (`NOSCRIPT No matching script...`) as the details of an error
/// whose kind it guesses from the code (`Unknown` for most, `InvalidArgument`
/// for WRONGTYPE, `Auth`, `Cluster` for MOVED and ASK). fred's own errors
/// never start with an upper-case code word.
fn server_error(error: &FredError) -> Option<redis::ServerError> {
    let from_server = matches!(
        error.kind(),
        FredErrorKind::Unknown
            | FredErrorKind::InvalidArgument
            | FredErrorKind::InvalidCommand
            | FredErrorKind::Auth
            | FredErrorKind::Cluster
            | FredErrorKind::Config
    );
    let details = error.details();
    let code = details.split(' ').next().unwrap_or_default();
    let is_code = !code.is_empty()
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if from_server && is_code {
        parse_server_error(details)
    } else {
        None
    }
}

/// fred's error as the redis-rs error the runtime's classification reads
/// (see `Error::applied`):
///
/// - the server's error reply: that reply, its code and message;
/// - `IO`, `Canceled`: an I/O error, the call may have been sent (fred
///   resends a command after reconnecting, up to its `max_command_attempts`,
///   so not even a refused reconnection says that no attempt ran);
/// - `Timeout`: an I/O timeout, the call may have been sent;
/// - errors fred raises before sending (`Config`, `Url`, `InvalidArgument`,
///   `InvalidCommand`, `Routing`, `Backpressure`, `Auth`): a client error,
///   not sent;
/// - anything else (`Protocol`, `Parse`, `Unknown`, ...): may have run.
pub(crate) fn to_redis_error(error: &FredError) -> RedisError {
    if let Some(server_error) = server_error(error) {
        return server_error.into();
    }
    let text = format!("fred: {error}");
    match error.kind() {
        FredErrorKind::IO | FredErrorKind::Canceled => io::Error::other(text).into(),
        FredErrorKind::Timeout => io::Error::new(io::ErrorKind::TimedOut, text).into(),
        FredErrorKind::Config
        | FredErrorKind::Url
        | FredErrorKind::InvalidArgument
        | FredErrorKind::InvalidCommand
        | FredErrorKind::Routing
        | FredErrorKind::Backpressure
        | FredErrorKind::Auth => RedisError::from((
            redis::ErrorKind::Client,
            "fred refused the command before sending it",
            text,
        )),
        _ => RedisError::from((
            redis::ErrorKind::UnexpectedReturnType,
            "fred failed the command",
            text,
        )),
    }
}

#[cfg(test)]
mod tests {
    use fred::error::{Error as FredError, ErrorKind as FredErrorKind};

    use super::*;
    use crate::error::{Applied, Error, ErrorKind};

    fn applied(error: FredError) -> Applied {
        Error::operation("EVALSHA", ErrorKind::Redis(to_redis_error(&error))).applied()
    }

    #[test]
    fn server_replies_keep_their_code_and_message() {
        for (kind, text, code) in [
            (
                FredErrorKind::Unknown,
                "NOSCRIPT No matching script. Please use EVAL.",
                "NOSCRIPT",
            ),
            (
                FredErrorKind::Unknown,
                "BUSY Redis is busy running a script.",
                "BUSY",
            ),
            (FredErrorKind::Unknown, "ERR user_script:1: boom", "ERR"),
            (
                FredErrorKind::InvalidArgument,
                "WRONGTYPE Operation against a key holding the wrong kind of value",
                "WRONGTYPE",
            ),
            (FredErrorKind::Cluster, "MOVED 3999 127.0.0.1:6381", "MOVED"),
        ] {
            let error = to_redis_error(&FredError::new(kind, text));
            assert_eq!(error.code(), Some(code), "{text}");
        }
        let noscript = FredError::new(
            FredErrorKind::Unknown,
            "NOSCRIPT No matching script. Please use EVAL.",
        );
        assert_eq!(applied(noscript), Applied::No);
        let raised = FredError::new(FredErrorKind::Unknown, "ERR user_script:1: boom");
        assert_eq!(applied(raised), Applied::Maybe);
    }

    #[test]
    fn freds_own_errors_are_not_read_as_replies() {
        let lost = FredError::new(FredErrorKind::IO, "Os { kind: ConnectionReset }");
        assert_eq!(to_redis_error(&lost).code(), None);
        assert_eq!(applied(lost), Applied::Maybe);
        let timeout = FredError::new(FredErrorKind::Timeout, "Request timed out.");
        assert!(to_redis_error(&timeout).is_timeout());
        assert_eq!(applied(timeout), Applied::Maybe);
        let canceled = FredError::new(FredErrorKind::Canceled, "Canceled.");
        assert_eq!(applied(canceled), Applied::Maybe);
        let refused = FredError::new(
            FredErrorKind::Backpressure,
            "Max in-flight commands reached.",
        );
        assert_eq!(applied(refused), Applied::No);
        let unknown = FredError::new(FredErrorKind::Unknown, "Max redirections exceeded");
        assert_eq!(to_redis_error(&unknown).code(), None);
        assert_eq!(applied(unknown), Applied::Maybe);
    }

    #[test]
    fn frames_read_as_redis_rs_reads_the_same_reply() {
        let bytes = |data: &str| Resp3Frame::BlobString {
            data: data.as_bytes().to_vec().into(),
            attributes: None,
        };
        let frame = Resp3Frame::Array {
            data: vec![
                Resp3Frame::Null,
                Resp3Frame::Number {
                    data: 7,
                    attributes: None,
                },
                bytes("x"),
                Resp3Frame::SimpleString {
                    data: "OK".into(),
                    attributes: None,
                },
                Resp3Frame::SimpleError {
                    data: "ERR inside".into(),
                    attributes: None,
                },
                Resp3Frame::Boolean {
                    data: false,
                    attributes: None,
                },
                Resp3Frame::Double {
                    data: 1.5,
                    attributes: None,
                },
            ],
            attributes: None,
        };
        let Value::Array(items) = frame_to_value(frame) else {
            panic!("not an array");
        };
        assert_eq!(items[0], Value::Nil);
        assert_eq!(items[1], Value::Int(7));
        assert_eq!(items[2], Value::BulkString(b"x".to_vec()));
        assert_eq!(items[3], Value::Okay);
        let Value::ServerError(error) = &items[4] else {
            panic!("not an error: {:?}", items[4]);
        };
        assert_eq!((error.code(), error.details()), ("ERR", Some("inside")));
        assert_eq!(items[5], Value::Boolean(false));
        assert_eq!(items[6], Value::Double(1.5));
        let big = frame_to_value(Resp3Frame::BigNumber {
            data: "12345678901234567890123".into(),
            attributes: None,
        });
        assert!(matches!(big, Value::BigNumber(_)), "{big:?}");
    }

    #[test]
    fn pipeline_values_read_as_redis_rs_values() {
        let value = FredValue::Array(vec![
            FredValue::Null,
            FredValue::Integer(-3),
            FredValue::String("text".into()),
            FredValue::Queued,
        ]);
        assert_eq!(
            fred_value_to_value(value),
            Value::Array(vec![
                Value::Nil,
                Value::Int(-3),
                Value::BulkString(b"text".to_vec()),
                Value::SimpleString("QUEUED".to_owned()),
            ])
        );
    }
}
