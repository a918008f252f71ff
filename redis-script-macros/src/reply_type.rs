//! A type read by name: what the nil check and the integer-range shape need
//! to know about the declared return type, and the parameter rules about a
//! parameter's type (`Vec<T>`, `u8`).

use quote::ToTokens;
use redis_script_analyzer::ReplyKind;
use redis_script_analyzer::reply_type::{self, RustType};
use syn::{GenericArgument, PathArguments, Type};

/// The integer types, whose replies are range-checked.
pub use redis_script_analyzer::reply_type::INTEGERS;

/// A type as far as its text tells.
pub enum Reading<'a> {
    /// `()`
    Unit,
    /// `(A, B, ...)`
    Tuple(Vec<&'a Type>),
    /// A path's last segment, with its one type argument if it has exactly
    /// one: `Option<T>` is `("Option", Some(T))`, `u32` is `("u32", None)`.
    Named(String, Option<&'a Type>),
    /// Anything else: references, arrays, `impl Trait`, qualified paths.
    Other,
}

/// Reads `ty`, seeing through parentheses and invisible groups.
pub fn read(ty: &Type) -> Reading<'_> {
    match ty {
        Type::Paren(inner) => read(&inner.elem),
        Type::Group(inner) => read(&inner.elem),
        Type::Tuple(tuple) if tuple.elems.is_empty() => Reading::Unit,
        Type::Tuple(tuple) => Reading::Tuple(tuple.elems.iter().collect()),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return Reading::Other;
            };
            let argument = match &last.arguments {
                PathArguments::AngleBracketed(args) if args.args.len() == 1 => {
                    match args.args.first() {
                        Some(GenericArgument::Type(inner)) => Some(inner),
                        _ => None,
                    }
                }
                _ => None,
            };
            Reading::Named(last.ident.to_string(), argument)
        }
        _ => Reading::Other,
    }
}

/// The type arguments of a path's last segment, in order: `K` and `V` of
/// `HashMap<K, V>`; none for anything but a path.
pub fn arguments(ty: &Type) -> Vec<&Type> {
    match ty {
        Type::Paren(inner) => arguments(&inner.elem),
        Type::Group(inner) => arguments(&inner.elem),
        Type::Path(path) if path.qself.is_none() => match path.path.segments.last() {
            Some(last) => match &last.arguments {
                PathArguments::AngleBracketed(args) => args
                    .args
                    .iter()
                    .filter_map(|arg| match arg {
                        GenericArgument::Type(ty) => Some(ty),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// `ty` as the analyzer's reply table reads it ([`RustType`]).
pub fn rust_type(ty: &Type) -> RustType {
    match read(ty) {
        Reading::Unit => RustType::Unit,
        Reading::Tuple(elements) => RustType::Tuple(elements.into_iter().map(rust_type).collect()),
        Reading::Named(name, inner) => {
            RustType::Named(name, inner.map(|inner| Box::new(rust_type(inner))))
        }
        Reading::Other => RustType::Other,
    }
}

/// What a Lua `nil`/`false` becomes in the declared type
/// ([`reply_type::reply_kind`]).
pub fn reply_kind(ty: &Type) -> ReplyKind {
    reply_type::reply_kind(&rust_type(ty))
}

/// A type as a person writes it: `Option<String>`, not `Option < String >`,
/// nor the `::std::option::Option` of generated declarations.
pub fn type_name(ty: &Type) -> String {
    let compact: String = ty
        .to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    [
        "::std::option::",
        "::std::string::",
        "::std::vec::",
        "::std::collections::",
    ]
    .iter()
    .fold(compact, |name, prefix| name.replace(prefix, ""))
    .replace(',', ", ")
}

#[cfg(test)]
mod tests {
    use super::type_name;

    #[test]
    fn type_names_read_as_written() {
        let ty: syn::Type = syn::parse_quote!(Option<Vec<(String, i64)>>);
        assert_eq!(type_name(&ty), "Option<Vec<(String, i64)>>");
        let ty: syn::Type = syn::parse_quote!(
            ::std::collections::HashMap<::std::string::String, ::std::option::Option<i64>>
        );
        assert_eq!(type_name(&ty), "HashMap<String, Option<i64>>");
    }
}
