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

use crate::error::{Error, ErrorKind};
use crate::script::Script;

/// The shape of a declared return type, as far as the macro can tell from its
/// text: where integers sit and how wide they are. redis-rs converts an
/// integer reply with `as`, so a value out of a narrower type's range would
/// silently wrap (`-1` into `u32`); checked against the shape first, it is an
/// error instead.
#[doc(hidden)]
#[derive(Debug)]
pub enum Shape {
    /// Not checked.
    Any,
    /// `redis::Value`: not checked, and as the whole declared type, the
    /// reply as sent, without folding RESP3 booleans.
    Raw,
    /// An integer type and its range, clamped to `i64` (a reply's range).
    Int { min: i64, max: i64 },
    /// `Option<T>`.
    Option(&'static Shape),
    /// `Vec<T>`.
    Seq(&'static Shape),
    /// `(A, B, ...)`.
    Tuple(&'static [Shape]),
}

impl Shape {
    /// The shape of an integer type with this range.
    pub const fn int(min: i128, max: i128) -> Shape {
        Shape::Int {
            min: if min < i64::MIN as i128 {
                i64::MIN
            } else {
                min as i64
            },
            max: if max > i64::MAX as i128 {
                i64::MAX
            } else {
                max as i64
            },
        }
    }

    /// Checks the integers in `value` against their declared ranges; any
    /// other mismatch is left to the conversion, which reports it.
    fn check(&self, value: &Value) -> Result<(), String> {
        match (self, value) {
            (Shape::Int { min, max }, Value::Int(n)) if n < min || n > max => Err(format!(
                "the integer {n} is outside its range {min}..={max}"
            )),
            (Shape::Option(_), Value::Nil) => Ok(()),
            (Shape::Option(inner), value) => inner.check(value),
            (Shape::Seq(inner), Value::Array(items) | Value::Set(items)) => {
                items.iter().try_for_each(|item| inner.check(item))
            }
            (Shape::Tuple(shapes), Value::Array(items)) if shapes.len() == items.len() => shapes
                .iter()
                .zip(items)
                .try_for_each(|(shape, item)| shape.check(item)),
            _ => Ok(()),
        }
    }
}

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
    fn integers_are_checked_against_their_declared_range() {
        static U8: Shape = Shape::int(0, 255);
        static OPTION_VEC: Shape = Shape::Option(&Shape::Seq(&U8));
        static PAIR: Shape = Shape::Tuple(&[Shape::Any, Shape::int(0, u64::MAX as i128)]);
        assert!(U8.check(&Value::Int(255)).is_ok());
        assert!(U8.check(&Value::Int(256)).is_err());
        assert!(U8.check(&Value::Int(-1)).is_err());
        let items = Value::Array(vec![Value::Int(1), Value::Int(300)]);
        assert!(OPTION_VEC.check(&items).is_err());
        assert!(OPTION_VEC.check(&Value::Nil).is_ok());
        let pair = Value::Array(vec![Value::Int(-5), Value::Int(-1)]);
        assert!(PAIR.check(&pair).is_err());
        assert_eq!(
            Shape::int(0, u64::MAX as i128).check(&Value::Int(i64::MAX)),
            Ok(())
        );
    }

    #[test]
    fn only_a_raw_reply_type_keeps_resp3_booleans() {
        use crate::script::ScriptParts;
        static SCRIPT: Script = Script::from_parts(ScriptParts {
            name: "test",
            file: "test.lua",
            source: "return false",
            sha1: "",
            key_names: &[],
            arg_names: &[],
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
    fn replies_without_booleans_are_unchanged() {
        let reply = Value::Array(vec![Value::Int(1), Value::BulkString(b"x".to_vec())]);
        assert_eq!(as_resp2(reply.clone()), reply);
    }
}
