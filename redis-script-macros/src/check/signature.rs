//! Whether a hand-written `#[redis_script]` declaration agrees with its
//! script's header signature ([`redis_script_analyzer::header`]), as errors.
//! The header's types as Rust sees them, and a header that does not parse,
//! are in [`crate::input::header`].

use quote::ToTokens;
use syn::{LitStr, Type};

use redis_script_analyzer::header::{Header, LuaType, Value};
use redis_script_analyzer::{Span as HeaderSpan, report};

use crate::errors::Errors;
use crate::input::ast::{Binding, Param, Split};
use crate::input::attr::Keys;
use crate::input::header::{key_parameters, param_type_name, reply_type_name};
use crate::reply_type::{self, INTEGERS, Reading};

/// What a declared Rust type is, as far as its name tells.
enum Kind<'a> {
    Text,
    Integer,
    Float,
    Bool,
    Option(Option<&'a Type>),
    Seq(Option<&'a Type>),
    Map(Option<&'a Type>),
    /// `redis::Value` and `()`, which take any reply.
    Anything,
    /// A user type, a generic, a smart pointer: not checked.
    Unknown,
}

fn kind(ty: &Type) -> Kind<'_> {
    match ty {
        Type::Reference(reference) => return kind(&reference.elem),
        // `&[u8]`: a byte string.
        Type::Slice(slice) if matches!(reply_type::read(&slice.elem), Reading::Named(name, None) if name == "u8") =>
        {
            return Kind::Text;
        }
        _ => {}
    }
    let (name, inner) = match reply_type::read(ty) {
        Reading::Named(name, inner) => (name, inner),
        Reading::Unit => return Kind::Anything,
        Reading::Tuple(_) | Reading::Other => return Kind::Unknown,
    };
    match name.as_str() {
        "str" | "String" => Kind::Text,
        "Vec" if is_bytes(ty) => Kind::Text,
        "f32" | "f64" => Kind::Float,
        "bool" => Kind::Bool,
        "Value" => Kind::Anything,
        "Option" => Kind::Option(inner),
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => Kind::Seq(inner),
        "HashMap" | "BTreeMap" => Kind::Map(reply_type::arguments(ty).get(1).copied()),
        name if INTEGERS.contains(&name) => Kind::Integer,
        _ => Kind::Unknown,
    }
}

/// Whether a declared Rust type can stand for a header type; a type whose
/// name does not tell (a user type, a generic) agrees.
fn agrees(rust: &Type, lua: &LuaType) -> bool {
    let inner_agrees =
        |inner: Option<&Type>, lua: &LuaType| inner.is_none_or(|inner| agrees(inner, lua));
    match (kind(rust), lua) {
        (Kind::Unknown | Kind::Anything, _) | (_, LuaType::Any) => true,
        (Kind::Text, LuaType::String)
        | (Kind::Integer, LuaType::Integer)
        | (Kind::Float | Kind::Integer, LuaType::Number)
        | (Kind::Bool, LuaType::Boolean)
        | (Kind::Option(_), LuaType::Nil) => true,
        // An `Option` holds what its content holds, and nil besides.
        (Kind::Option(inner), LuaType::Optional(lua)) => inner_agrees(inner, lua),
        (Kind::Option(inner), lua) => inner_agrees(inner, lua),
        (Kind::Seq(inner), LuaType::Array(lua)) => inner_agrees(inner, lua),
        (Kind::Map(value), LuaType::Map(lua)) => inner_agrees(value, lua),
        _ => false,
    }
}

/// `Vec<u8>`: a byte string, one value.
fn is_bytes(ty: &Type) -> bool {
    reply_type::arguments(ty).first().is_some_and(
        |elem| matches!(reply_type::read(elem), Reading::Named(name, None) if name == "u8"),
    )
}

/// Where a hand-written declaration and the script's header differ, each as
/// an error at the Rust token, quoting the header's line.
pub fn check_agreement(
    binding: &Binding,
    keys: &Keys,
    file: &LitStr,
    source: &str,
    header: &Header,
    errors: &mut Errors,
) {
    let path = file.value();
    // At every token of `at` (a whole type, not only its first token),
    // quoting the header's line.
    let quote_line = |at: &dyn ToTokens, value_span, message: String, note: &str| {
        syn::Error::new_spanned(
            at,
            report::render(&path, source, value_span, &message, Some(note)),
        )
    };
    let header_keys = key_parameters(header);
    if header_keys != keys.count {
        let names: Vec<&str> = header
            .keys
            .iter()
            .chain(&header.variadic_keys)
            .map(|key| key.name.as_str())
            .collect();
        errors.push(quote_line(
            &keys.lit,
            header.keys.first().map_or(header.span, |key| key.span),
            format!(
                "`keys = {}`, but the header of `{path}` declares {} key parameter{} ({})",
                keys.count,
                header_keys,
                if header_keys == 1 { "" } else { "s" },
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                },
            ),
            "the header and the declaration must agree: change one of them",
        ));
        return;
    }
    let split = binding.split(keys.count);
    let type_error = |param: &Param, value: &Value| {
        (!agrees(&param.ty, &value.ty)).then(|| {
            quote_line(
                &param.ty,
                value.span,
                format!(
                    "`{}` is declared `{}` in the header of `{path}`, which this type does not hold",
                    value.name, value.ty
                ),
                &format!("declare it `{}`, or change the header", param_type_name(&value.ty)),
            )
        })
    };
    if let Some(error) = reordered(&split, header, &path, &quote_line) {
        // The same names in another order: one error, and each type
        // compared with the header's value of its name.
        errors.push(error);
        for param in split.keys.iter().chain(split.args) {
            let value = header
                .keys
                .iter()
                .chain(&header.args)
                .find(|value| param.ident == value.name);
            if let Some(error) = value.and_then(|value| type_error(param, value)) {
                errors.push(error);
            }
        }
        compare_tail_and_reply(binding, &split, header, &path, &quote_line, errors);
        return;
    }
    let mut compare = |kind: &str, rust: &[Param], lua: &[Value]| {
        for (index, (param, value)) in rust.iter().zip(lua).enumerate() {
            if param.ident != value.name {
                errors.push(quote_line(
                    &param.ident,
                    value.span,
                    format!(
                        "`{}` is {kind} {} of `{path}`, which its header names `{}`",
                        param.ident,
                        index + 1,
                        value.name
                    ),
                    "the header and the declaration must agree: rename one of them",
                ));
            }
            if let Some(error) = type_error(param, value) {
                errors.push(error);
            }
        }
        if rust.len() != lua.len() {
            let (at, value_span): (&dyn ToTokens, _) =
                match (rust.get(lua.len()), lua.get(rust.len())) {
                    (Some(param), _) => (&param.ident, header.span),
                    (None, Some(value)) => (&binding.sig.ident, value.span),
                    (None, None) => (&binding.sig.ident, header.span),
                };
            errors.push(quote_line(
                at,
                value_span,
                format!(
                    "the declaration has {} {kind} value{}, the header of `{path}` {}",
                    rust.len(),
                    if rust.len() == 1 { "" } else { "s" },
                    lua.len()
                ),
                "the header and the declaration must agree: add or remove one",
            ));
        }
    };
    compare("KEYS", split.keys, &header.keys);
    compare("ARGV", split.args, &header.args);
    compare_tail_and_reply(binding, &split, header, &path, &quote_line, errors);
}

/// An error at a declaration's tokens, quoting a line of the header.
type QuoteLine<'a> = dyn Fn(&dyn ToTokens, HeaderSpan, String, &str) -> syn::Error + 'a;

/// The declaration's KEYS and ARGV names are the header's, in another
/// order: one error naming both orders.
fn reordered(
    split: &Split,
    header: &Header,
    path: &str,
    quote_line: &QuoteLine,
) -> Option<syn::Error> {
    let declared: Vec<String> = split
        .keys
        .iter()
        .chain(split.args)
        .map(|param| param.ident.to_string())
        .collect();
    let headed: Vec<&str> = header
        .keys
        .iter()
        .chain(&header.args)
        .map(|value| value.name.as_str())
        .collect();
    let mut declared_sorted: Vec<&str> = declared.iter().map(String::as_str).collect();
    let mut headed_sorted = headed.clone();
    declared_sorted.sort_unstable();
    headed_sorted.sort_unstable();
    if declared == headed || declared_sorted != headed_sorted {
        return None;
    }
    let first = declared
        .iter()
        .zip(&headed)
        .position(|(rust, lua)| rust != lua)?;
    let misplaced = split.keys.iter().chain(split.args).nth(first)?;
    let value_span = header.keys.iter().chain(&header.args).nth(first)?.span;
    Some(quote_line(
        &misplaced.ident,
        value_span,
        format!(
            "the declaration takes `{}` in this order, but the header of `{path}` declares `{}`",
            declared.join(", "),
            headed.join(", ")
        ),
        &format!(
            "the order is the order of KEYS then ARGV: reorder the parameters as `{}`, or the header",
            headed.join(", ")
        ),
    ))
}

/// The lists of keys, the variadic tail and the reply against the header's.
fn compare_tail_and_reply(
    binding: &Binding,
    split: &Split,
    header: &Header,
    path: &str,
    quote_line: &QuoteLine,
    errors: &mut Errors,
) {
    let compare_list = |list: &List, rust: Option<&Param>, lua: Option<&Value>| {
        let List { tag, what, example } = list;
        match (rust, lua) {
            (Some(param), None) => Some(quote_line(
                &param.ident,
                header.span,
                format!(
                    "`{}` is `#[variadic]`, {what}, but the header of `{path}` declares no \
                     `---@{tag} ...`",
                    param.ident
                ),
                &format!(
                    "declare it in the header, e.g. `---@{tag} ... string`, or remove #[variadic]"
                ),
            )),
            (None, Some(value)) => Some(quote_line(
                &binding.sig.ident,
                value.span,
                format!("the header of `{path}` declares {what}, which the declaration lacks"),
                &format!("add {example}, or remove `---@{tag} ...`"),
            )),
            _ => None,
        }
    };
    let key_list = List {
        tag: "key",
        what: "a list of keys",
        example: "a last key parameter `#[variadic] keys: &[&str]` (counted in `keys`)",
    };
    let tail = List {
        tag: "param",
        what: "a variadic tail",
        example: "a last parameter `#[variadic] rest: &[&str]`",
    };
    for error in [
        compare_list(
            &key_list,
            split.variadic_keys,
            header.variadic_keys.as_ref(),
        ),
        compare_list(&tail, split.variadic, header.variadic.as_ref()),
    ]
    .into_iter()
    .flatten()
    {
        errors.push(error);
    }
    if let Some(reply) = &header.reply {
        let rust = binding.reply_type();
        if !agrees(&rust, &reply.ty) {
            let at: &dyn ToTokens = match &binding.sig.output {
                syn::ReturnType::Type(_, ty) => ty,
                syn::ReturnType::Default => &binding.sig.ident,
            };
            errors.push(quote_line(
                at,
                reply.span,
                format!(
                    "the header of `{path}` declares the reply `{}`, which the declared return type does not hold",
                    reply.ty
                ),
                &format!("declare `-> {}`, or change the header", reply_type_name(&reply.ty)),
            ));
        }
    }
}

/// A `#[variadic]` list as a header declares it, for messages.
struct List {
    /// `key` or `param`.
    tag: &'static str,
    /// What the list is.
    what: &'static str,
    /// A declaration of it.
    example: &'static str,
}
