//! What a reply's Rust type can hold, judged by the type's name: the one
//! table behind the nil and reply-shape checks, for `#[redis_script]` (the
//! declared return type, read from its tokens) and for `redis-lua` (a
//! header's `---@return`, as the Rust type `scripts!` binds it to).

use crate::header::LuaType;
use crate::reply::{Elements, Reply};

/// Whether the declared return type can receive what a Lua `nil` or `false` becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplyKind {
    /// `Option<_>`, `()`, `redis::Value`: any falsy value.
    Nullable,
    /// `bool`: a Lua `false`, but not a `nil` (which has no boolean meaning in the script).
    Bool,
    /// A scalar that a nil reply fails to convert into: `String`, integers, floats.
    NonNull,
    /// Anything else (collections, generics, user types): not checked.
    Unknown,
}

/// The integer types, whose replies are range-checked.
pub const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

/// A Rust type as far as its name tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RustType {
    /// `()`
    Unit,
    /// `(A, B, ...)`, with its element types.
    Tuple(Vec<RustType>),
    /// A path's last segment, with its one type argument if it has exactly
    /// one: `Option<T>` is `("Option", Some(T))`, `u32` is `("u32", None)`,
    /// `HashMap<K, V>` is `("HashMap", None)`.
    Named(String, Option<Box<RustType>>),
    /// Anything else: references, arrays, `impl Trait`, qualified paths.
    Other,
}

impl RustType {
    /// `name` with no type argument.
    pub fn named(name: &str) -> RustType {
        RustType::Named(name.to_owned(), None)
    }

    /// `name<inner>`.
    pub fn of(name: &str, inner: RustType) -> RustType {
        RustType::Named(name.to_owned(), Some(Box::new(inner)))
    }
}

/// What a Lua `nil`/`false` becomes in the type: anything not recognised
/// is not checked.
pub fn reply_kind(ty: &RustType) -> ReplyKind {
    match ty {
        RustType::Unit => ReplyKind::Nullable,
        RustType::Named(name, _) => match name.as_str() {
            "Option" | "Value" => ReplyKind::Nullable,
            "bool" => ReplyKind::Bool,
            "String" | "f32" | "f64" => ReplyKind::NonNull,
            name if INTEGERS.contains(&name) => ReplyKind::NonNull,
            _ => ReplyKind::Unknown,
        },
        RustType::Tuple(_) | RustType::Other => ReplyKind::Unknown,
    }
}

/// Whether `reply` may convert into `ty` as redis-rs converts replies, on
/// 1.x or on 2.0 (which also reads the strings `"true"`/`"false"` as
/// `bool`): false only where it fails on both, true for any type the name
/// does not settle (user types, generics, `redis::Value`).
pub(crate) fn fits(reply: &Reply, ty: &RustType) -> bool {
    if *reply == Reply::Any {
        return true;
    }
    // Every stream ID converts as any one does.
    if *reply == Reply::StreamId {
        return fits(&Reply::String(Some(b"0-1".to_vec())), ty);
    }
    // Received, a `false` is nil or an integer ([`Reply::received`]).
    if *reply == Reply::False {
        return fits(&Reply::Nil, ty) || fits(&Reply::Integer, ty);
    }
    let RustType::Named(name, inner) = ty else {
        return match ty {
            // redis-rs reads a tuple from a map's pairs or a set's members
            // too: not judged.
            RustType::Tuple(_) if matches!(reply, Reply::Map | Reply::Set) => true,
            RustType::Tuple(elements) => tuple_fits(reply, elements),
            _ => true,
        };
    };
    let inner = inner.as_deref();
    // RESP3's own kinds, which a RESP2 client never receives: as redis-rs
    // 1.x and 2.0 convert them (a map into a map, or a sequence of pairs,
    // maps or values; a set into a sequence or a set; a verbatim string into
    // a string; a big number into none of the types named here).
    let resp3 = match reply {
        // A `Vec` takes a map's entries each as a map of one (or a pair),
        // and a set's members (in pairs for a tuple).
        Reply::Map => Some(match name.as_str() {
            "Vec" => inner.is_none_or(|inner| {
                matches!(inner, RustType::Tuple(_)) || fits(&Reply::Map, inner)
            }),
            "HashMap" | "BTreeMap" => true,
            _ => false,
        }),
        Reply::Set => Some(matches!(name.as_str(), "Vec" | "HashSet" | "BTreeSet")),
        Reply::Verbatim => Some(matches!(name.as_str(), "String" | "Json")),
        Reply::BigNumber(_) => Some(false),
        _ => None,
    };
    if let Some(holds) = resp3 {
        let known = matches!(
            name.as_str(),
            "Option"
                | "String"
                | "Vec"
                | "HashSet"
                | "BTreeSet"
                | "HashMap"
                | "BTreeMap"
                | "Json"
                | "bool"
                | "f32"
                | "f64"
        ) || INTEGERS.contains(&name.as_str());
        return match name.as_str() {
            "Option" => inner.is_none_or(|inner| fits(reply, inner)),
            _ => holds || !known,
        };
    }
    match name.as_str() {
        "Option" => *reply == Reply::Nil || inner.is_none_or(|inner| fits(reply, inner)),
        "String" => matches!(
            reply,
            Reply::Integer | Reply::Double | Reply::String(_) | Reply::Status(_)
        ),
        "f32" | "f64" => number_fits(reply, |text| text.parse::<f64>().is_ok()),
        // As wide as any integer type: a text neither parses fits none.
        name if INTEGERS.contains(&name) => number_fits(reply, |text| {
            text.parse::<i128>().is_ok() || text.parse::<u128>().is_ok()
        }),
        "bool" => match reply {
            Reply::Nil | Reply::Integer => true,
            // `+OK` reaches redis-rs as `Value::Okay`, which is `true`.
            Reply::Status(Some(text)) if text == b"OK" => true,
            Reply::String(text) | Reply::Status(text) => text
                .as_deref()
                .is_none_or(|text| matches!(text, b"0" | b"1" | b"true" | b"false")),
            _ => false,
        },
        "Vec" => match reply {
            Reply::Nil => true,
            // A bulk string is one element; a `Vec<u8>` takes its bytes.
            Reply::String(_) => {
                inner.is_none_or(|inner| *inner == RustType::named("u8") || fits(reply, inner))
            }
            Reply::Array(elements) => inner.is_none_or(|inner| elements_fit(elements, inner)),
            _ => false,
        },
        "HashSet" | "BTreeSet" | "HashMap" | "BTreeMap" => {
            matches!(reply, Reply::Nil | Reply::Array(_))
        }
        "Json" => matches!(reply, Reply::String(_) | Reply::Status(_)),
        _ => true,
    }
}

/// Whether the elements of an array may all convert into `ty`, as a
/// `Vec`'s elements.
fn elements_fit(elements: &Elements, ty: &RustType) -> bool {
    // A `Vec` of tuples also takes a flat array in chunks: not judged.
    matches!(ty, RustType::Tuple(_))
        || elements
            .leading
            .iter()
            .all(|element| element.iter().any(|reply| fits(reply, ty)))
}

/// Whether `reply` may be a number whose text, if any, `parses`. The status
/// `OK` reaches redis-rs as `Value::Okay`, which no number takes.
fn number_fits(reply: &Reply, parses: impl Fn(&str) -> bool) -> bool {
    match reply {
        Reply::Integer | Reply::Double => true,
        Reply::Status(Some(text)) if text == b"OK" => false,
        Reply::String(text) | Reply::Status(text) => text
            .as_deref()
            .is_none_or(|text| std::str::from_utf8(text).is_ok_and(&parses)),
        _ => false,
    }
}

/// Whether `reply` may be an array of exactly `elements.len()` replies that
/// fit them in order: a tuple takes nothing else, not even nil.
fn tuple_fits(reply: &Reply, elements: &[RustType]) -> bool {
    if elements.is_empty() {
        return true;
    }
    let Reply::Array(array) = reply else {
        return false;
    };
    let length_fits = if array.exact {
        array.leading.len() == elements.len()
    } else {
        array.leading.len() <= elements.len()
    };
    length_fits
        && array
            .leading
            .iter()
            .zip(elements)
            .all(|(element, ty)| element.iter().any(|reply| fits(reply, ty)))
}

/// Types to suggest for replies the declared type cannot hold, the first
/// that holds them all: as a Rust type, and as a header's `---@return`.
const SUGGESTIONS: &[(&str, &str)] = &[
    ("i64", "integer"),
    ("String", "string"),
    ("Vec<redis::Value>", "any[]"),
    ("HashMap<String, redis::Value>", "table<string,any>"),
    ("Option<i64>", "integer?"),
    ("Option<String>", "string?"),
    ("Option<Vec<redis::Value>>", "any[]?"),
    (
        "Option<HashMap<String, redis::Value>>",
        "table<string,any>?",
    ),
    ("redis::Value", "any"),
];

/// A type that holds every one of `replies`: `(Rust type, header type)`.
pub(crate) fn suggestion(replies: &[Reply]) -> (&'static str, &'static str) {
    SUGGESTIONS
        .iter()
        .copied()
        .find(|(rust, _)| {
            let ty = suggested_type(rust);
            replies.iter().all(|reply| fits(reply, &ty))
        })
        .unwrap_or(("redis::Value", "any"))
}

/// A suggestion's text as a [`RustType`].
fn suggested_type(text: &str) -> RustType {
    match text
        .strip_prefix("Option<")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        Some(inner) => RustType::of("Option", suggested_type(inner)),
        None => match text {
            "Vec<redis::Value>" => RustType::of("Vec", RustType::named("Value")),
            "HashMap<String, redis::Value>" => RustType::named("HashMap"),
            "redis::Value" => RustType::named("Value"),
            name => RustType::named(name),
        },
    }
}

impl LuaType {
    /// The Rust type `scripts!` gives a reply declared with this type.
    pub fn reply_rust_type(&self) -> RustType {
        match self {
            LuaType::String => RustType::named("String"),
            LuaType::Integer => RustType::named("i64"),
            LuaType::Number => RustType::named("f64"),
            LuaType::Boolean => RustType::named("bool"),
            LuaType::Nil => RustType::Unit,
            LuaType::Any => RustType::named("Value"),
            LuaType::Optional(inner) => RustType::of("Option", inner.reply_rust_type()),
            LuaType::Array(inner) => RustType::of("Vec", inner.reply_rust_type()),
            // `HashMap<String, T>`: two type arguments.
            LuaType::Map(_) => RustType::named("HashMap"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_type_holds_what_its_rust_type_holds() {
        let optional = LuaType::Optional(Box::new(LuaType::String));
        assert_eq!(
            optional.reply_rust_type(),
            RustType::of("Option", RustType::named("String"))
        );
        assert_eq!(reply_kind(&optional.reply_rust_type()), ReplyKind::Nullable);
        assert_eq!(
            reply_kind(&LuaType::Integer.reply_rust_type()),
            ReplyKind::NonNull
        );
        assert_eq!(
            reply_kind(&LuaType::Map(Box::new(LuaType::Integer)).reply_rust_type()),
            ReplyKind::Unknown
        );
        let strings = LuaType::Array(Box::new(LuaType::String)).reply_rust_type();
        assert!(fits(&Reply::STRING, &strings));
        assert!(!fits(&Reply::Integer, &strings));
        let any = LuaType::Any.reply_rust_type();
        assert!(
            [Reply::Integer, Reply::Nil, Reply::ARRAY]
                .iter()
                .all(|reply| fits(reply, &any))
        );
    }
}
