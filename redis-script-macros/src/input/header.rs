//! A script's header signature ([`redis_script_analyzer::header`]) seen from
//! Rust: the types it maps to, and the binding `scripts!` builds from it
//! (whether a hand-written declaration agrees with it is checked in
//! [`crate::check::signature`]).
//!
//! | header type | parameter | reply |
//! |---|---|---|
//! | `string` | `&str` | `String` |
//! | `integer` | `i64` | `i64` |
//! | `number` | `f64` | `f64` |
//! | `boolean` | `bool` | `bool` |
//! | `nil` | - | `()` |
//! | `any` | - | `redis::Value` |
//! | `T?`, `T\|nil` | - | `Option<T>` |
//! | `T[]` | - | `Vec<T>` |
//! | `table<string,T>` | - | `HashMap<String, T>` |
//! | `...` of `T` | `&[T]` (`#[variadic]`: `keys` for `@key`, `rest` for `@param`) | - |

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{
    Attribute, FnArg, Generics, LitStr, Pat, PatIdent, PatType, ReturnType, Safety, Signature,
    Type, Visibility,
};

use redis_script_analyzer::header::{Header, HeaderError, LuaType, Value};
use redis_script_analyzer::report;

use crate::errors::Errors;
use crate::input::ast::Binding;
use crate::reply_type;

use redis_script_analyzer::header::{
    KEY_LIST_PARAMETER as VARIADIC_KEYS, TAIL_PARAMETER as VARIADIC_TAIL,
};

/// How many key parameters a header declares: `keys = N` of its binding.
pub fn key_parameters(header: &Header) -> usize {
    header.keys.len() + usize::from(header.variadic_keys.is_some())
}

/// The Rust type of a key or argument declared `ty` (one value).
fn param_type(ty: &LuaType) -> TokenStream {
    match ty {
        LuaType::Integer => quote!(i64),
        LuaType::Number => quote!(f64),
        LuaType::Boolean => quote!(bool),
        // The header refuses other types for keys and arguments.
        _ => quote!(&str),
    }
}

/// The Rust type of a reply declared `ty`; `krate` is the facade's path.
fn reply_type(ty: &LuaType, krate: &TokenStream) -> TokenStream {
    match ty {
        LuaType::String => quote!(::std::string::String),
        LuaType::Integer => quote!(i64),
        LuaType::Number => quote!(f64),
        LuaType::Boolean => quote!(bool),
        LuaType::Nil => quote!(()),
        LuaType::Any => quote!(#krate::redis::Value),
        LuaType::Optional(inner) => {
            let inner = reply_type(inner, krate);
            quote!(::std::option::Option<#inner>)
        }
        LuaType::Array(inner) => {
            let inner = reply_type(inner, krate);
            quote!(::std::vec::Vec<#inner>)
        }
        LuaType::Map(inner) => {
            let inner = reply_type(inner, krate);
            quote!(::std::collections::HashMap<::std::string::String, #inner>)
        }
    }
}

/// [`param_type`] as a person writes it, for messages.
pub fn param_type_name(ty: &LuaType) -> String {
    let tokens = param_type(ty);
    reply_type::type_name(&syn::parse_quote!(#tokens))
}

/// [`reply_type`] as a person writes it, for messages.
pub fn reply_type_name(ty: &LuaType) -> String {
    let tokens = reply_type(ty, &quote!(redis));
    reply_type::type_name(&syn::parse_quote!(#tokens))
}

/// The declaration `scripts!` binds a headed script with, built from the
/// header: its description and each value's as docs, the names and types
/// the header gives, the names at `span` (the folder literal, where errors
/// about them show).
pub fn binding(name: &syn::Ident, header: &Header, krate: &TokenStream, span: Span) -> Binding {
    let mut docs: Vec<String> = header
        .description
        .iter()
        .map(|line| format!(" {line}"))
        .collect();
    let described: Vec<&Value> = header
        .keys
        .iter()
        .chain(&header.variadic_keys)
        .chain(&header.args)
        .chain(&header.variadic)
        .filter(|value| !value.description.is_empty())
        .collect();
    if !described.is_empty() {
        docs.push(String::new());
        for value in described {
            let name = match &header.variadic_keys {
                Some(keys) if std::ptr::eq(keys, value) => VARIADIC_KEYS,
                _ if value.name == "..." => VARIADIC_TAIL,
                _ => &value.name,
            };
            docs.push(format!(" - `{name}`: {}", value.description));
        }
    }
    if let Some(reply) = header
        .reply
        .as_ref()
        .filter(|reply| !reply.description.is_empty())
    {
        docs.push(String::new());
        docs.push(format!(" Replies {}", reply.description));
    }
    let attrs: Vec<Attribute> = docs
        .iter()
        .map(|doc| syn::parse_quote!(#[doc = #doc]))
        .collect();
    let param = |ident: syn::Ident, ty: Type, attrs: Vec<Attribute>| {
        FnArg::Typed(PatType {
            attrs,
            pat: Box::new(Pat::Ident(PatIdent {
                attrs: Vec::new(),
                by_ref: None,
                mutability: None,
                ident,
                subpat: None,
            })),
            colon_token: Default::default(),
            ty: Box::new(ty),
        })
    };
    let fixed = |values: &[Value]| -> Vec<FnArg> {
        values
            .iter()
            .map(|value| {
                let ty = param_type(&value.ty);
                param(
                    syn::Ident::new(&value.name, span),
                    syn::parse_quote!(#ty),
                    Vec::new(),
                )
            })
            .collect()
    };
    let list = |value: Option<&Value>, name: &str| {
        value.map(|value| {
            let ty = param_type(&value.ty);
            param(
                format_ident!("{}", name, span = span),
                syn::parse_quote!(&[#ty]),
                vec![syn::parse_quote!(#[variadic])],
            )
        })
    };
    let inputs = fixed(&header.keys)
        .into_iter()
        .chain(list(header.variadic_keys.as_ref(), VARIADIC_KEYS))
        .chain(fixed(&header.args))
        .chain(list(header.variadic.as_ref(), VARIADIC_TAIL))
        .collect();
    let reply = header
        .reply
        .as_ref()
        .map_or_else(|| quote!(()), |reply| reply_type(&reply.ty, krate));
    let sig = Signature {
        constness: None,
        asyncness: None,
        safety: Safety::Default,
        abi: None,
        fn_token: Default::default(),
        ident: name.clone(),
        generics: Generics::default(),
        paren_token: Default::default(),
        inputs,
        variadic: None,
        output: ReturnType::Type(Default::default(), Box::new(syn::parse_quote!(#reply))),
    };
    let vis = Visibility::Public(Default::default());
    Binding::from_syn(attrs, vis, sig, None)
}

/// A header that does not parse, as errors on the `file` literal quoting
/// each line.
pub fn header_errors(
    file: &LitStr,
    source: &str,
    header_errors: &[HeaderError],
    errors: &mut Errors,
) {
    for error in header_errors {
        let message = report::render(
            &file.value(),
            source,
            error.span,
            &format!("in the script's header: {}", error.message),
            error.note.as_deref(),
        );
        errors.push(syn::Error::new(file.span(), message));
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use quote::quote;

    use redis_script_analyzer::header;

    use super::binding;

    /// The binding a header declares, as the declaration a user would write.
    #[test]
    fn a_header_declares_the_binding_scripts_binds() {
        let source = "--- Takes a lock.\n\
                      ---@key lock string the lock\n\
                      ---@key ... string\n\
                      ---@param ttl_ms integer\n\
                      ---@param ... string\n\
                      ---@return string? the token\n\
                      return nil\n";
        let header = header::parse(source)
            .expect("a header that parses")
            .expect("a header");
        let name = syn::Ident::new("acquire", Span::call_site());
        let binding = binding(&name, &header, &quote!(::redis_script), Span::call_site());
        let (attrs, vis, sig) = (&binding.attrs, &binding.vis, &binding.sig);
        let written = quote!(#(#attrs)* #vis #sig;).to_string();
        let expected = quote! {
            #[doc = " Takes a lock."]
            #[doc = ""]
            #[doc = " - `lock`: the lock"]
            #[doc = ""]
            #[doc = " Replies the token"]
            pub fn acquire(
                lock: &str,
                #[variadic] keys: &[&str],
                ttl_ms: i64,
                #[variadic] rest: &[&str]
            ) -> ::std::option::Option<::std::string::String>;
        }
        .to_string();
        assert_eq!(written, expected);
        assert_eq!(binding.params.len(), 4);
        assert!(binding.bad_params.is_empty() && binding.body.is_none());
        let variadic: Vec<bool> = binding
            .params
            .iter()
            .map(|p| p.variadic.is_some())
            .collect();
        assert_eq!(variadic, [false, true, false, true]);
    }
}
