//! The rules a binding must follow, apart from parsing and generation.

use syn::spanned::Spanned;
use syn::{FnArg, Ident, Type};

use crate::errors::Errors;
use crate::input::ast::{Binding, Param, VARIADIC};
use crate::input::attr::Keys;
use crate::reply_type::{self, Reading};

impl Binding {
    /// Checks the declaration and its `keys` count, recording every problem.
    pub fn validate(&self, keys: Option<&Keys>, errors: &mut Errors) {
        for error in &self.bad_params {
            errors.push(error.clone());
        }
        self.validate_signature(errors);
        self.validate_params(errors);
        self.validate_single_values(keys, errors);
        if let Some(keys) = keys {
            self.validate_keys(keys, errors);
            self.validate_variadic_positions(keys.count, errors);
        }
    }

    fn validate_signature(&self, errors: &mut Errors) {
        let sig = &self.sig;
        let name = &sig.ident;
        if let Some(body) = &self.body {
            errors.push(syn::Error::new(
                body.span(),
                format!(
                    "remove the body: #[redis_script] generates `{name}` from the Lua file; \
                     end the declaration with `;`"
                ),
            ));
        }
        if let Some(token) = &sig.asyncness {
            errors.push(syn::Error::new(
                token.span,
                format!(
                    "remove `async`: `{name}(...)` builds the call, which runs with \
                     `.invoke(&mut con)` or `.invoke_async(&mut con).await`"
                ),
            ));
        }
        if let Some(token) = &sig.constness {
            errors.push(syn::Error::new(
                token.span,
                "remove `const`: a script call cannot be built at compile time",
            ));
        }
        if let syn::Safety::Unsafe(token) = &sig.safety {
            errors.push(syn::Error::new(
                token.span,
                "remove `unsafe`: building a script call is safe, and so is the generated function",
            ));
        }
        if let Some(abi) = &sig.abi {
            errors.push(syn::Error::new_spanned(
                abi,
                "remove the ABI: a #[redis_script] function is a Rust function",
            ));
        }
        if let Some(variadic) = &sig.variadic {
            errors.push(syn::Error::new_spanned(
                variadic,
                "C-style `...` is not supported: mark the last parameter #[variadic] to pass \
                 any number of ARGV values",
            ));
        }
    }

    fn validate_params(&self, errors: &mut Errors) {
        for param in &self.params {
            for attr in &param.other_attrs {
                errors.push(syn::Error::new_spanned(
                    attr,
                    format!(
                        "remove this attribute: a #[redis_script] parameter is one KEYS or ARGV \
                         value and takes no attribute but #[{VARIADIC}]"
                    ),
                ));
            }
        }
    }

    /// A `#[variadic]` parameter is a list that ends its part of the call:
    /// the last of the first `keys` parameters ends KEYS (the call's
    /// numkeys counts its keys), the last parameter ends ARGV. Anywhere
    /// else, the values after it could not be told apart from it.
    fn validate_variadic_positions(&self, keys: usize, errors: &mut Errors) {
        // More keys than parameters is an error of its own, which says
        // where the keys end.
        if keys > self.params.len() {
            return;
        }
        let last = self.params.len().saturating_sub(1);
        for (index, param) in self.params.iter().enumerate() {
            let Some(attr) = &param.variadic else {
                continue;
            };
            let name = &param.ident;
            if index + 1 < keys {
                errors.push(syn::Error::new_spanned(
                    attr,
                    format!(
                        "#[{VARIADIC}] on a key takes the rest of KEYS, so only the last key \
                         parameter (parameter {keys}, as `keys = {keys}` says) can have it: \
                         move `{name}` after the other keys, or remove #[{VARIADIC}]\n  = note: a call \
                         has one list of keys, in one #[{VARIADIC}] parameter"
                    ),
                ));
            } else if index >= keys && index != last {
                errors.push(syn::Error::new_spanned(
                    attr,
                    format!(
                        "#[{VARIADIC}] takes the rest of ARGV, so only the last parameter can \
                         have it: move `{name}` to the end or remove #[{VARIADIC}]"
                    ),
                ));
            }
        }
    }

    /// A key or fixed argument fills one KEYS or ARGV position, so its type
    /// must encode to one Redis value. A type that visibly holds several
    /// (a slice, a `Vec`, an array, a tuple, a set, a map) would shift every
    /// position after it: refused here, on the type. What the text cannot tell (a generic
    /// parameter, an `Option` that is `None`) is checked when the call is
    /// built, as `ErrorKind::Argument`.
    fn validate_single_values(&self, keys: Option<&Keys>, errors: &mut Errors) {
        let generics: Vec<&Ident> = self
            .sig
            .generics
            .type_params()
            .map(|param| &param.ident)
            .collect();
        for (index, param) in self.params.iter().enumerate() {
            // A #[variadic] parameter takes any number of values (and, if it
            // is misplaced, has an error of its own), but not exactly one.
            if param.variadic.is_some() {
                if let Some(what) = one_value(&param.ty) {
                    errors.push(syn::Error::new_spanned(
                        &param.ty,
                        one_value_message(param, what, keys.map(|keys| index < keys.count)),
                    ));
                }
                continue;
            }
            let Some(problem) = several_values(&param.ty, &generics) else {
                continue;
            };
            let position = match keys {
                Some(keys) if index < keys.count => Position::Key,
                Some(_) => Position::FixedArg,
                None => Position::Unknown,
            };
            errors.push(syn::Error::new_spanned(
                &param.ty,
                several_values_message(param, problem, position),
            ));
        }
    }

    fn validate_keys(&self, keys: &Keys, errors: &mut Errors) {
        // Counted as written: a badly named parameter is still a parameter
        // (and has its own error), a receiver never is.
        let params = self
            .sig
            .inputs
            .iter()
            .filter(|arg| matches!(arg, FnArg::Typed(_)))
            .count();
        if keys.count > params {
            errors.push(syn::Error::new_spanned(
                &keys.lit,
                format!(
                    "`keys = {}` but `{}` has {params} parameter{}: the first `keys` parameters \
                     are the script's KEYS, so `keys` can be at most {params}",
                    keys.count,
                    self.sig.ident,
                    if params == 1 { "" } else { "s" },
                ),
            ));
        }
    }
}

/// Why a parameter type, as written, is not one Redis value.
#[derive(Debug, PartialEq, Eq)]
enum NotOneValue {
    /// A slice, `Vec`, array, tuple or set: one value per element. The
    /// text names which.
    Several(&'static str),
    /// A map: two values per entry. The text names which.
    Pairs(&'static str),
    /// One of the above in a `Box`, `Arc`, `Rc` or `Option` (the text), which
    /// encodes as what it holds (`None` as no value at all).
    In(&'static str, Box<NotOneValue>),
    /// `[u8; N]`: redis-rs encodes a byte array by reference (`&[u8; N]`, one
    /// value) but not by value.
    ByteArrayByValue,
}

impl NotOneValue {
    /// What the type is, and how many values it encodes to.
    fn describe(&self) -> (String, &'static str) {
        match self {
            NotOneValue::Several(what) => ((*what).to_owned(), "one Redis value per element"),
            NotOneValue::Pairs(what) => ((*what).to_owned(), "two Redis values per entry"),
            NotOneValue::In(wrapper, inner) => {
                let (what, per) = inner.describe();
                (format!("{wrapper} of {what}"), per)
            }
            NotOneValue::ByteArrayByValue => ("a byte array".to_owned(), "no Redis value"),
        }
    }
}

/// Whether `ty` visibly encodes to other than one value. Byte strings
/// (`&[u8]`, `Vec<u8>`, `&[u8; N]`) are one value; collections of a generic
/// parameter `T` are not judged, since `T` may be `u8`.
fn several_values(ty: &Type, generics: &[&Ident]) -> Option<NotOneValue> {
    let one_value_per_element = |elem: &Type| !is_u8(elem) && !is_generic(elem, generics);
    match ty {
        Type::Reference(reference) => match &*reference.elem {
            // `&[u8; N]` is one value; `&[T; N]` one per element.
            Type::Array(array) if !one_value_per_element(&array.elem) => None,
            elem => several_values(elem, generics),
        },
        Type::Paren(inner) => several_values(&inner.elem, generics),
        Type::Group(inner) => several_values(&inner.elem, generics),
        Type::Slice(slice) if one_value_per_element(&slice.elem) => {
            Some(NotOneValue::Several("a slice"))
        }
        Type::Array(array) if one_value_per_element(&array.elem) => {
            Some(NotOneValue::Several("an array"))
        }
        Type::Array(array) if is_u8(&array.elem) => Some(NotOneValue::ByteArrayByValue),
        Type::Tuple(tuple) if tuple.elems.len() > 1 => Some(NotOneValue::Several("a tuple")),
        // `(T,)` encodes as `T` does.
        Type::Tuple(tuple) => tuple
            .elems
            .first()
            .and_then(|elem| several_values(elem, generics)),
        Type::Path(_) => match reply_type::read(ty) {
            Reading::Named(name, Some(elem)) if name == "Vec" && one_value_per_element(elem) => {
                Some(NotOneValue::Several("a `Vec`"))
            }
            // One value per element, whatever the element (a set of `u8`
            // is no byte string); a map, two per entry.
            Reading::Named(name, _) => match name.as_str() {
                "HashSet" => Some(NotOneValue::Several("a `HashSet`")),
                "BTreeSet" => Some(NotOneValue::Several("a `BTreeSet`")),
                "HashMap" => Some(NotOneValue::Pairs("a `HashMap`")),
                "BTreeMap" => Some(NotOneValue::Pairs("a `BTreeMap`")),
                // These encode as what they hold: `Box<[T]>`, `Arc<Vec<T>>`,
                // and `Some(vec)` is one value per element.
                "Box" | "Arc" | "Rc" | "Option" => {
                    let wrapper = match name.as_str() {
                        "Box" => "a `Box`",
                        "Arc" => "an `Arc`",
                        "Rc" => "an `Rc`",
                        _ => "an `Option`",
                    };
                    let inner = reply_type::arguments(ty)
                        .first()
                        .and_then(|inner| several_values(inner, generics))?;
                    match inner {
                        NotOneValue::ByteArrayByValue => Some(inner),
                        inner => Some(NotOneValue::In(wrapper, Box::new(inner))),
                    }
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// What `ty` is if it visibly encodes to exactly one value (a string, a
/// number, a byte string), which a `#[variadic]` list cannot be; `None` for
/// a collection, an `Option`, a generic or a type of the user's.
fn one_value(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Reference(reference) => match &*reference.elem {
            Type::Slice(slice) if is_u8(&slice.elem) => Some("a byte string"),
            Type::Array(array) if is_u8(&array.elem) => Some("a byte string"),
            elem => one_value(elem),
        },
        Type::Paren(inner) => one_value(&inner.elem),
        Type::Group(inner) => one_value(&inner.elem),
        Type::Path(_) => match reply_type::read(ty) {
            Reading::Named(name, None) => match name.as_str() {
                "str" | "String" => Some("a string"),
                "bool" => Some("a boolean"),
                "f32" | "f64" => Some("a number"),
                name if reply_type::INTEGERS.contains(&name) => Some("a number"),
                _ => None,
            },
            Reading::Named(name, Some(elem)) if name == "Vec" && is_u8(elem) => {
                Some("a byte string")
            }
            _ => None,
        },
        _ => None,
    }
}

/// `param` is `#[variadic]` but its type is `what`, one value; `is_key`
/// when `keys` tells.
fn one_value_message(param: &Param, what: &str, is_key: Option<bool>) -> String {
    let name = &param.ident;
    let list = match is_key {
        Some(true) => "a list of keys",
        Some(false) => "the ARGV tail",
        None => "a list",
    };
    format!(
        "`{name}` is #[{VARIADIC}], {list} of any length, but its type is {what}, which is \
         always one value\n  = note: take a slice or a `Vec` of values (e.g. `&[&str]`), or \
         remove #[{VARIADIC}] to pass one value"
    )
}

fn is_u8(ty: &Type) -> bool {
    matches!(reply_type::read(ty), Reading::Named(name, None) if name == "u8")
}

fn is_generic(ty: &Type, generics: &[&Ident]) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .get_ident()
            .is_some_and(|ident| generics.contains(&ident)),
        _ => false,
    }
}

/// Where a parameter goes, as far as `keys` tells.
#[derive(Clone, Copy)]
enum Position {
    Key,
    FixedArg,
    /// `keys` is missing or invalid (an error of its own).
    Unknown,
}

impl Position {
    /// What the parameter is, and what it fills.
    fn describe(self) -> (&'static str, &'static str) {
        match self {
            Position::Key => ("a key", "one KEYS position"),
            Position::FixedArg => ("a fixed argument", "one ARGV position"),
            Position::Unknown => ("a key or fixed argument", "one KEYS or ARGV position"),
        }
    }
}

fn several_values_message(param: &Param, problem: NotOneValue, position: Position) -> String {
    let name = &param.ident;
    let (is, fills) = position.describe();
    match problem {
        NotOneValue::ByteArrayByValue => format!(
            "`{name}` is {is}, but redis-rs does not encode a byte array by value\n  = note: \
             take it by reference (`&[u8; N]`) or as `&[u8]`: either is one value, a byte string"
        ),
        several => {
            let (what, per) = several.describe();
            let list = match position {
                Position::Key => format!(
                    "to pass any number of keys, mark the last key parameter #[{VARIADIC}], \
                     a list of keys that the call's numkeys counts"
                ),
                _ => format!(
                    "to pass any number of values, mark the last parameter #[{VARIADIC}], \
                     which fills the rest of ARGV"
                ),
            };
            format!(
                "`{name}` is {is}, which fills {fills}, but its type is {what}, which encodes \
                 to {per}\n  = note: a key or fixed argument must be one value (a byte string, \
                 `&[u8]` or `Vec<u8>`, is one); {list}, or pass each value as its own parameter"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(ty: Type) -> Option<NotOneValue> {
        let t: Ident = syn::parse_quote!(T);
        several_values(&ty, &[&t])
    }

    #[test]
    fn collections_of_several_values_are_refused() {
        let several = |what| Some(NotOneValue::Several(what));
        assert_eq!(judge(syn::parse_quote!(&[&str])), several("a slice"));
        assert_eq!(judge(syn::parse_quote!(Vec<String>)), several("a `Vec`"));
        assert_eq!(
            judge(syn::parse_quote!(std::vec::Vec<i64>)),
            several("a `Vec`")
        );
        assert_eq!(judge(syn::parse_quote!([i64; 3])), several("an array"));
        assert_eq!(judge(syn::parse_quote!(&[i64; 3])), several("an array"));
        assert_eq!(judge(syn::parse_quote!((&str, i64))), several("a tuple"));
        assert_eq!(
            judge(syn::parse_quote!(&(Vec<String>,))),
            several("a `Vec`")
        );
        assert_eq!(
            judge(syn::parse_quote!([u8; 16])),
            Some(NotOneValue::ByteArrayByValue)
        );
        assert_eq!(
            judge(syn::parse_quote!(std::collections::HashSet<String>)),
            several("a `HashSet`")
        );
        assert_eq!(
            judge(syn::parse_quote!(BTreeSet<u8>)),
            several("a `BTreeSet`")
        );
        let pairs = |what| Some(NotOneValue::Pairs(what));
        assert_eq!(
            judge(syn::parse_quote!(&HashMap<String, i64>)),
            pairs("a `HashMap`")
        );
        assert_eq!(
            judge(syn::parse_quote!(BTreeMap<K, V>)),
            pairs("a `BTreeMap`")
        );
        let described = |ty: Type| judge(ty).map(|problem| problem.describe().0);
        assert_eq!(
            described(syn::parse_quote!(Box<[String]>)).as_deref(),
            Some("a `Box` of a slice")
        );
        assert_eq!(
            described(syn::parse_quote!(std::sync::Arc<Vec<i64>>)).as_deref(),
            Some("an `Arc` of a `Vec`")
        );
        assert_eq!(
            described(syn::parse_quote!(Option<Vec<String>>)).as_deref(),
            Some("an `Option` of a `Vec`")
        );
    }

    #[test]
    fn one_value_types_and_generic_elements_pass() {
        for ty in [
            quote::quote!(&str),
            quote::quote!(String),
            quote::quote!(i64),
            quote::quote!(&[u8]),
            quote::quote!(Vec<u8>),
            quote::quote!(&[u8; 16]),
            quote::quote!(&[T]),
            quote::quote!(Vec<T>),
            quote::quote!(Option<i64>),
            quote::quote!(Option<&[u8]>),
            quote::quote!(Box<[u8]>),
            quote::quote!(std::rc::Rc<str>),
            quote::quote!(Box<T>),
            quote::quote!(T),
            quote::quote!((i64,)),
            quote::quote!(()),
        ] {
            let parsed: Type = syn::parse2(ty.clone()).unwrap();
            assert_eq!(judge(parsed), None, "{ty}");
        }
    }
}
