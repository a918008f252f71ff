//! `Json<T>`: a parameter or reply that travels as JSON text, for scripts
//! that meet it with `cjson.decode(ARGV[1])` and `return cjson.encode(t)`.

use redis::{FromRedisValue, ParsingError, RedisWrite, ToRedisArgs, Value};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A value that crosses the wire as JSON text (serde_json), one Redis
/// value: a parameter `Json<T>` sends `T` serialized, a reply `Json<T>`
/// reads the script's JSON text into `T`.
///
/// ```
/// # use redis_script_runtime::redis;
/// use redis::{FromRedisValue, ToRedisArgs, Value};
/// use redis_script_runtime::Json; // `redis_script::Json` in the facade
///
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Order { id: u32, items: Vec<String> }
///
/// let order = Json(Order { id: 7, items: vec!["tea".into()] });
/// assert_eq!(order.to_redis_args(), [br#"{"id":7,"items":["tea"]}"#.to_vec()]);
///
/// let reply = Value::BulkString(br#"{"id":8,"items":[]}"#.to_vec());
/// let Json(read) = Json::<Order>::from_redis_value(reply)?;
/// assert_eq!(read, Order { id: 8, items: vec![] });
/// # Ok::<(), redis::ParsingError>(())
/// ```
///
/// A reply that is not JSON for `T` (or nil: declare `Option<Json<T>>` for a
/// script that may reply nil) is an error of the call, naming the script and
/// saying what did not fit. A value that serde_json cannot serialize (a map
/// with non-string keys, say) encodes to no value at all, so the call fails
/// with [`ErrorKind::Argument`](crate::ErrorKind::Argument) and sends nothing.
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The value inside.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: Serialize> ToRedisArgs for Json<T> {
    fn write_redis_args<W: ?Sized + RedisWrite>(&self, out: &mut W) {
        // Serialized whole first: a failure writes no value, which the call
        // reports, rather than half a value.
        if let Ok(text) = serde_json::to_vec(&self.0) {
            out.write_arg(&text);
        }
    }

    fn num_of_args(&self) -> usize {
        1
    }
}

impl<T: DeserializeOwned> FromRedisValue for Json<T> {
    fn from_redis_value(value: Value) -> Result<Self, ParsingError> {
        let text = match value {
            Value::BulkString(bytes) => bytes,
            Value::SimpleString(text) | Value::VerbatimString { text, .. } => text.into_bytes(),
            Value::Nil => {
                return Err(ParsingError::from(format!(
                    "the reply is nil, not JSON text for `{}` (declare `Option<Json<...>>` for a \
                     script that may reply nil)",
                    std::any::type_name::<T>()
                )));
            }
            other => {
                return Err(ParsingError::from(format!(
                    "the reply is not JSON text for `{}`: {other:?}",
                    std::any::type_name::<T>()
                )));
            }
        };
        serde_json::from_slice(&text).map(Json).map_err(|error| {
            ParsingError::from(format!(
                "the reply is not JSON for `{}`: {error}",
                std::any::type_name::<T>()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn a_value_serde_json_cannot_write_encodes_to_no_value() {
        // Map keys must be strings in JSON.
        let map: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        assert!(Json(map).to_redis_args().is_empty());
        assert_eq!(Json("x").to_redis_args(), [b"\"x\"".to_vec()]);
    }

    #[test]
    fn every_reply_that_is_not_json_text_for_the_type_is_an_error() {
        let read = |value| Json::<Vec<u8>>::from_redis_value(value).map(Json::into_inner);
        assert_eq!(read(Value::BulkString(b"[1,2]".to_vec())).unwrap(), [1, 2]);
        assert_eq!(
            read(Value::SimpleString("[]".into())).unwrap(),
            Vec::<u8>::new()
        );
        for value in [
            Value::Nil,
            Value::Int(1),
            Value::BulkString(b"[1,".to_vec()),
            Value::BulkString(b"[300]".to_vec()),
        ] {
            assert!(read(value.clone()).is_err(), "{value:?}");
        }
    }
}
