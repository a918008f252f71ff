//! From the server's reply to the binding's declared return type.
//!
//! A Lua `false` reaches the client as a null on RESP2 and RESP3, but as a
//! RESP3 boolean once the script called `redis.setresp(3)`; `true` likewise as
//! integer 1 or a RESP3 boolean. Folding the booleans back into their RESP2
//! forms first makes every declared type see one shape whatever the protocol:
//! `Option<T>` sees `None` for every Lua false, `bool` sees `false`.

use std::any::TypeId;

use redis::{FromRedisValue, RedisResult, Value};

use crate::error::{Error, ErrorKind};
use crate::script::Script;

/// Converts a reply into `T`, naming `script` and `expected` on failure.
///
/// `redis::Value` is the escape hatch and receives the reply as sent.
pub(crate) fn decode<T: FromRedisValue + 'static>(
    script: &Script,
    expected: &'static str,
    reply: RedisResult<Value>,
) -> Result<T, Error> {
    let value = reply
        .and_then(Value::extract_error)
        .map_err(|error| Error::redis(script, error))?;
    let value = if TypeId::of::<T>() == TypeId::of::<Value>() {
        value
    } else {
        as_resp2(value)
    };
    T::from_redis_value(value)
        .map_err(|source| Error::new(script, ErrorKind::Reply { expected, source }))
}

/// Rewrites RESP3 booleans, anywhere in the reply, as RESP2 sends Lua booleans:
/// `false` as null, `true` as integer 1.
fn as_resp2(value: Value) -> Value {
    match value {
        Value::Boolean(false) => Value::Nil,
        Value::Boolean(true) => Value::Int(1),
        Value::Array(items) => Value::Array(as_resp2_all(items)),
        Value::Set(items) => Value::Set(as_resp2_all(items)),
        Value::Map(pairs) => Value::Map(
            pairs
                .into_iter()
                .map(|(key, value)| (as_resp2(key), as_resp2(value)))
                .collect(),
        ),
        other => other,
    }
}

fn as_resp2_all(items: Vec<Value>) -> Vec<Value> {
    // Collecting a mapped `vec::IntoIter` back into a Vec reuses its allocation.
    items.into_iter().map(as_resp2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans_become_their_resp2_forms_at_any_depth() {
        let reply = Value::Array(vec![
            Value::Boolean(false),
            Value::Array(vec![Value::Boolean(true), Value::Int(7)]),
        ]);
        let expected = Value::Array(vec![
            Value::Nil,
            Value::Array(vec![Value::Int(1), Value::Int(7)]),
        ]);
        assert_eq!(as_resp2(reply), expected);
    }

    #[test]
    fn replies_without_booleans_are_unchanged() {
        let reply = Value::Array(vec![Value::Int(1), Value::BulkString(b"x".to_vec())]);
        assert_eq!(as_resp2(reply.clone()), reply);
    }
}
