//! What a reply's Rust type can hold, judged by the type's name: the one
//! table behind the nil and reply-shape checks, for `#[redis_script]` (the
//! declared return type, read from its tokens) and for `redis-lua` (a
//! header's `---@return`, as the Rust type `scripts!` binds it to).

use crate::check::{ReplyKind, Shapes};
use crate::header::LuaType;

/// The integer types, whose replies are range-checked.
pub const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

/// A Rust type as far as its name tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RustType {
    /// `()`
    Unit,
    /// `(A, B, ...)`
    Tuple,
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
        RustType::Tuple | RustType::Other => ReplyKind::Unknown,
    }
}

/// The reply shapes the type can hold, as redis-rs converts replies (1.8):
/// `Shapes::ALL` for any type the name does not settle (user types,
/// generics, tuples, `redis::Value`).
pub fn accepted_shapes(ty: &RustType) -> Shapes {
    let scalar = Shapes::INTEGER
        .union(Shapes::STRING)
        .union(Shapes::STATUS)
        .union(Shapes::DOUBLE);
    match ty {
        RustType::Named(name, inner) => match name.as_str() {
            "Option" => Shapes::NIL.union(inner.as_deref().map_or(Shapes::ALL, accepted_shapes)),
            "String" | "f32" | "f64" => scalar,
            name if INTEGERS.contains(&name) => scalar,
            "bool" => Shapes::NIL
                .union(Shapes::INTEGER)
                .union(Shapes::STRING)
                .union(Shapes::STATUS),
            // A bulk string is a one-element vector (or, for `u8`, its bytes).
            "Vec" => Shapes::ARRAY.union(Shapes::STRING).union(Shapes::NIL),
            "HashSet" | "BTreeSet" | "HashMap" | "BTreeMap" => Shapes::ARRAY.union(Shapes::NIL),
            "Json" => Shapes::STRING.union(Shapes::STATUS),
            _ => Shapes::ALL,
        },
        RustType::Unit | RustType::Tuple | RustType::Other => Shapes::ALL,
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
        assert_eq!(
            accepted_shapes(&LuaType::Array(Box::new(LuaType::String)).reply_rust_type()),
            Shapes::ARRAY.union(Shapes::STRING).union(Shapes::NIL)
        );
        assert_eq!(
            accepted_shapes(&LuaType::Any.reply_rust_type()),
            Shapes::ALL
        );
    }
}
