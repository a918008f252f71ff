//! The shape of a binding's declared return type, as the macro embeds it
//! (`Shape::int(0, 255)` for a `u8`), and the check of a reply's integers
//! against it.
//!
//! A leaf: the macro writes a shape into each binding's [`Script`](crate::Script),
//! so the shape cannot depend on the replies module that reads with it.

use redis::Value;

/// The shape of a declared return type, as far as the macro can tell from its
/// text: where integers sit and how wide they are. redis-rs converts an
/// integer reply with `as` in 1.x, so a value out of a narrower type's range
/// would silently wrap (`-1` into `u32`), and a double would lose its
/// fraction, saturate (`1e10` into `u8` as 255) or turn NaN into 0; checked
/// against the shape first, such a value is an error instead, as redis-rs 2.0
/// makes it too.
///
/// [`Shape::check`] follows the reply the way redis-rs's conversions walk
/// it (attributes seen through where they are, a `Vec` of pairs from a flat
/// array, a map from a flat array), so that every integer that reaches an
/// integer type is checked on its way there.
#[doc(hidden)]
#[derive(Debug)]
pub enum Shape {
    /// Not checked.
    Any,
    /// `redis::Value`: not checked, and as the whole declared type, the
    /// reply as sent, without folding RESP3 booleans.
    Raw,
    /// An integer type and its range.
    Int { min: i128, max: i128 },
    /// `Option<T>`.
    Option(&'static Shape),
    /// `Vec<T>`.
    Seq(&'static Shape),
    /// `HashSet<T>`, `BTreeSet<T>`.
    Set(&'static Shape),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`.
    Map(&'static Shape, &'static Shape),
    /// `(A, B, ...)`.
    Tuple(&'static [Shape]),
}

impl Shape {
    /// The shape of an integer type with this range; `max` is taken as
    /// `u128` so that `u128::MAX` needs no cast that wraps, and is clamped to
    /// `i128::MAX`, beyond anything a reply holds.
    pub const fn int(min: i128, max: u128) -> Shape {
        Shape::Int {
            min,
            max: if max > i128::MAX as u128 {
                i128::MAX
            } else {
                max as i128
            },
        }
    }

    /// Checks the integers in `value` against their declared ranges; any
    /// other mismatch is left to the conversion, which reports it.
    pub(crate) fn check(&self, value: &Value) -> Result<(), String> {
        match self {
            Shape::Any | Shape::Raw => Ok(()),
            Shape::Int { min, max } => match inner(value) {
                Value::Int(n) => in_range(i128::from(*n), *min, *max),
                Value::Double(d) => {
                    // redis-rs 1.x truncates a fraction, saturates and reads
                    // NaN as 0; 2.0 refuses all three. A binding refuses them
                    // on both, so it reads a reply the same on either.
                    if !(d.is_finite() && d.fract() == 0.0 && d.abs() < I128_LIMIT) {
                        return Err(format!("the double {d} is not a whole number in range"));
                    }
                    in_range(*d as i128, *min, *max)
                        .map_err(|_| format!("the double {d} is outside the range {min}..={max}"))
                }
                _ => Ok(()),
            },
            Shape::Option(shape) => match inner(value) {
                Value::Nil => Ok(()),
                value => shape.check(value),
            },
            // A `Vec` does not see through an attribute.
            Shape::Seq(shape) => match value {
                Value::Array(items) | Value::Set(items) => shape.check_items(items),
                Value::Map(pairs) => pairs
                    .iter()
                    .try_for_each(|(key, value)| shape.check_pair(key, value)),
                Value::BulkString(_) => shape.check(value),
                _ => Ok(()),
            },
            Shape::Set(shape) => match inner(value) {
                Value::Array(items) | Value::Set(items) => {
                    items.iter().try_for_each(|item| shape.check(item))
                }
                _ => Ok(()),
            },
            Shape::Map(keys, values) => match inner(value) {
                Value::Array(items) if items.len().is_multiple_of(2) => {
                    items.chunks_exact(2).try_for_each(|pair| {
                        keys.check(&pair[0])?;
                        values.check(&pair[1])
                    })
                }
                Value::Map(pairs) => pairs.iter().try_for_each(|(key, value)| {
                    keys.check(key)?;
                    values.check(value)
                }),
                _ => Ok(()),
            },
            Shape::Tuple(shapes) => match inner(value) {
                Value::Array(items) | Value::Set(items) if items.len() == shapes.len() => {
                    check_each(shapes, items.iter())
                }
                Value::Map(pairs) if pairs.len() * 2 == shapes.len() => {
                    check_each(shapes, pairs.iter().flat_map(|(key, value)| [key, value]))
                }
                _ => Ok(()),
            },
        }
    }

    /// Checks the elements of an array or set as a `Vec` of this shape
    /// takes them: a `Vec` of n-tuples takes n-element collections one
    /// each, and anything else in chunks of n (a flat array of pairs).
    fn check_items(&self, items: &[Value]) -> Result<(), String> {
        match self {
            Shape::Tuple(shapes)
                if !shapes.is_empty()
                    && !items
                        .iter()
                        .all(|item| is_collection_of_len(item, shapes.len())) =>
            {
                if !items.len().is_multiple_of(shapes.len()) {
                    return Ok(());
                }
                items
                    .chunks_exact(shapes.len())
                    .try_for_each(|chunk| check_each(shapes, chunk.iter()))
            }
            _ => items.iter().try_for_each(|item| self.check(item)),
        }
    }

    /// Checks one entry of a map as a `Vec` element of this shape takes it:
    /// redis-rs converts it as a map of that one pair.
    fn check_pair(&self, key: &Value, value: &Value) -> Result<(), String> {
        match self {
            Shape::Tuple(shapes) if shapes.len() == 2 => {
                check_each(shapes, [key, value].into_iter())
            }
            Shape::Map(keys, values) => {
                keys.check(key)?;
                values.check(value)
            }
            Shape::Option(shape) | Shape::Seq(shape) => shape.check_pair(key, value),
            _ => Ok(()),
        }
    }
}

/// 2^127: a truncated double below it in magnitude converts to `i128` exactly.
const I128_LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

fn in_range(n: i128, min: i128, max: i128) -> Result<(), String> {
    if n < min || n > max {
        return Err(format!(
            "the integer {n} is outside its range {min}..={max}"
        ));
    }
    Ok(())
}

fn check_each<'v>(shapes: &[Shape], values: impl Iterator<Item = &'v Value>) -> Result<(), String> {
    shapes
        .iter()
        .zip(values)
        .try_for_each(|(shape, value)| shape.check(value))
}

/// The value an attribute carries, as redis-rs's conversions (all but
/// `Vec`'s) read it.
fn inner(value: &Value) -> &Value {
    match value {
        Value::Attribute { data, .. } => inner(data),
        other => other,
    }
}

/// redis-rs's test of whether a `Vec` element is a whole tuple of `len`.
fn is_collection_of_len(value: &Value, len: usize) -> bool {
    match value {
        Value::Array(items) | Value::Set(items) => items.len() == len,
        Value::Map(pairs) => pairs.len() * 2 == len,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_checked_against_their_declared_range() {
        static U8: Shape = Shape::int(0, 255);
        static OPTION_VEC: Shape = Shape::Option(&Shape::Seq(&U8));
        static PAIR: Shape = Shape::Tuple(&[Shape::Any, Shape::int(0, u64::MAX as u128)]);
        assert!(U8.check(&Value::Int(255)).is_ok());
        assert!(U8.check(&Value::Int(256)).is_err());
        assert!(U8.check(&Value::Int(-1)).is_err());
        let items = Value::Array(vec![Value::Int(1), Value::Int(300)]);
        assert!(OPTION_VEC.check(&items).is_err());
        assert!(OPTION_VEC.check(&Value::Nil).is_ok());
        let pair = Value::Array(vec![Value::Int(-5), Value::Int(-1)]);
        assert!(PAIR.check(&pair).is_err());
        assert_eq!(
            Shape::int(0, u64::MAX as u128).check(&Value::Int(i64::MAX)),
            Ok(())
        );
        assert_eq!(Shape::int(0, u128::MAX).check(&Value::Int(7)), Ok(()));
    }

    #[test]
    fn doubles_map_entries_and_flat_pairs_are_checked_as_redis_rs_reads_them() {
        static U8: Shape = Shape::int(0, 255);
        static MAP: Shape = Shape::Map(&Shape::Any, &U8);
        static PAIRS: Shape = Shape::Seq(&Shape::Tuple(&[Shape::Any, Shape::int(0, 255)]));
        // A whole number in range; never truncated, saturated, or NaN as 0.
        assert!(U8.check(&Value::Double(255.0)).is_ok());
        for refused in [255.9, 0.5, 256.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(U8.check(&Value::Double(refused)).is_err(), "{refused}");
        }
        let attributed = Value::Attribute {
            data: Box::new(Value::Int(300)),
            attributes: Vec::new(),
        };
        assert!(U8.check(&attributed).is_err());
        let flat = |value| Value::Array(vec![Value::Int(1), value]);
        assert!(MAP.check(&flat(Value::Int(300))).is_err());
        assert!(MAP.check(&flat(Value::Int(3))).is_ok());
        assert!(PAIRS.check(&flat(Value::Int(-1))).is_err());
        let map = Value::Map(vec![(Value::Int(1), Value::Int(-1))]);
        assert!(MAP.check(&map).is_err());
        assert!(PAIRS.check(&map).is_err());
    }
}
