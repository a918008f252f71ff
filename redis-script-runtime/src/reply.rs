//! From the server's reply to the binding's declared return type.
//!
//! A Lua `false` reaches the client as a null on RESP2 and RESP3, but as a
//! RESP3 boolean once the script called `redis.setresp(3)`; `true` likewise as
//! integer 1 or a RESP3 boolean. Folding the booleans back into their RESP2
//! forms first makes every declared type see one shape whatever the protocol:
//! `Option<T>` sees `None` for every Lua false, `bool` sees `false`.
//!
//! The one exception is a binding declared to return `redis::Value` itself
//! ([`Shape::Raw`]): it receives the reply exactly as sent. The macro tells
//! from the declaration's text, so a generic `T` declared as the reply gets
//! the folded form even when it is instantiated as `redis::Value`.

use redis::{FromRedisValue, ParsingError, RedisResult, Value};

use crate::embedded::script::Script;
use crate::embedded::shape::Shape;
use crate::error::{Error, ErrorKind};

/// Converts a reply into `T`, naming `script` and `expected` on failure.
///
/// A [`Shape::Raw`] reply type receives the reply as sent; any other gets
/// RESP3 booleans folded into their RESP2 forms first.
pub(crate) fn decode<T: FromRedisValue>(
    script: &Script,
    expected: &'static str,
    shape: &Shape,
    reply: RedisResult<Value>,
) -> Result<T, Error> {
    // Only an error reply as a whole fails the call; an error inside a table
    // (`{1, redis.pcall(...)}`) is part of the reply, for `redis::Value` or
    // `Vec<RedisResult<T>>` to receive.
    let value = match reply {
        Ok(Value::ServerError(error)) => Err(error.into()),
        other => other,
    }
    .map_err(|error| Error::redis(script, error))?;
    let value = match shape {
        Shape::Raw => value,
        _ => as_resp2(value),
    };
    let reply_error = |source| Error::new(script, ErrorKind::Reply { expected, source });
    shape
        .check(&value)
        .map_err(|message| reply_error(ParsingError::from(message)))?;
    T::from_redis_value(value).map_err(reply_error)
}

/// Rewrites RESP3 booleans, anywhere in the reply, as RESP2 sends Lua booleans:
/// `false` as null, `true` as integer 1.
fn as_resp2(value: Value) -> Value {
    match value {
        Value::Boolean(false) => Value::Nil,
        Value::Boolean(true) => Value::Int(1),
        Value::Array(items) => Value::Array(as_resp2_all(items)),
        Value::Set(items) => Value::Set(as_resp2_all(items)),
        Value::Map(pairs) => Value::Map(as_resp2_pairs(pairs)),
        Value::Attribute { data, attributes } => Value::Attribute {
            data: Box::new(as_resp2(*data)),
            attributes: as_resp2_pairs(attributes),
        },
        Value::Push { kind, data } => Value::Push {
            kind,
            data: as_resp2_all(data),
        },
        other => other,
    }
}

fn as_resp2_pairs(pairs: Vec<(Value, Value)>) -> Vec<(Value, Value)> {
    pairs
        .into_iter()
        .map(|(key, value)| (as_resp2(key), as_resp2(value)))
        .collect()
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
    fn only_a_raw_reply_type_keeps_resp3_booleans() {
        use crate::embedded::script::ScriptParts;
        static SCRIPT: Script = Script::from_parts(ScriptParts {
            name: "test",
            binding_path: "tests::test",
            function: None,
            file: "test.lua",
            source: "return false",
            sha1: "",
            key_names: &[],
            arg_names: &[],
            variadic_keys: false,
            variadic: false,
            reply_type: "redis::Value",
            reply_shape: &Shape::Raw,
            flags: &[],
            read_only: false,
        });
        let reply = || Ok(Value::Array(vec![Value::Boolean(false)]));
        let raw: Value = decode(&SCRIPT, "redis::Value", &Shape::Raw, reply()).unwrap();
        assert_eq!(raw, Value::Array(vec![Value::Boolean(false)]));
        // A generic `T` declared as the reply has the shape `Any`.
        let folded: Value = decode(&SCRIPT, "T", &Shape::Any, reply()).unwrap();
        assert_eq!(folded, Value::Array(vec![Value::Nil]));
    }

    #[test]
    fn booleans_under_attributes_and_in_pushes_are_folded_too() {
        let reply = Value::Attribute {
            data: Box::new(Value::Boolean(false)),
            attributes: vec![(Value::Boolean(true), Value::Nil)],
        };
        let expected = Value::Attribute {
            data: Box::new(Value::Nil),
            attributes: vec![(Value::Int(1), Value::Nil)],
        };
        assert_eq!(as_resp2(reply), expected);
        let push = |data| Value::Push {
            kind: redis::PushKind::Message,
            data,
        };
        assert_eq!(
            as_resp2(push(vec![Value::Boolean(false)])),
            push(vec![Value::Nil])
        );
    }

    #[test]
    fn replies_without_booleans_are_unchanged() {
        let reply = Value::Array(vec![Value::Int(1), Value::BulkString(b"x".to_vec())]);
        assert_eq!(as_resp2(reply.clone()), reply);
    }
}
