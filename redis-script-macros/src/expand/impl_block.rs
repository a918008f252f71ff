//! `#[bindings] impl Type { … }`: bindings as associated functions.
//!
//! An attribute on a function cannot tell whether it stands in a module or
//! in an `impl`, and an `impl` admits no module, static or `const _` (rustc:
//! "module is not supported in `trait`s or `impl`s", "associated `static`
//! items are not allowed", "`const` items in this context need a name").
//! The attribute on the `impl` sees it whole: being outer, it expands
//! before the bindings' own attributes, takes each binding out of the
//! attribute's hands, leaves its function in the `impl` (with a
//! `<name>_script()` accessor) and puts its `mod <name>` in a hidden module
//! beside the `impl`, `__redis_script_<Type>_<name>`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, ImplItem, ItemImpl, Type};

use super::{Expansion, Place, request_expansion};
use crate::input::attr::Kind;
use crate::input::manifest::Manifest;
use crate::input::request::Request;

/// `#[bindings] impl …`, as tokens in and out.
pub fn bindings(args: TokenStream, item: TokenStream) -> TokenStream {
    match expand(args, item) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

fn expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if !args.is_empty() {
        return Err(syn::Error::new_spanned(
            args,
            "#[bindings] takes no arguments: write it alone on the `impl`",
        ));
    }
    let mut block = syn::parse2::<ItemImpl>(item)?;
    if let Some((path, _)) = &block.trait_ {
        return Err(syn::Error::new_spanned(
            path,
            "#[bindings] goes on an inherent `impl Type`, not on a trait's `impl`",
        ));
    }
    let self_ty = type_name(&block.self_ty)?;
    let place = Place::Impl { self_ty };
    let manifest = Manifest::read(Span::call_site());

    let mut modules = Vec::new();
    let mut attribute_paths = Vec::new();
    for item in &mut block.items {
        let tokens = item.to_token_stream();
        let Ok(Item { attrs, rest }) = syn::parse2::<Item>(tokens) else {
            continue;
        };
        let Some(index) = attrs.iter().position(|attr| binding_kind(attr).is_some()) else {
            continue;
        };
        let mut attrs = attrs;
        let attr = attrs.remove(index);
        let kind = binding_kind(&attr).expect("found above");
        attribute_paths.push(attr.path().clone());
        let args = match &attr.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            // `#[redis_script]` alone: the request reports the missing arguments.
            _ => TokenStream::new(),
        };
        let declaration = quote!(#(#attrs)* #rest);
        let Expansion { function, module } =
            match Request::from_attribute(kind, args, declaration, &manifest) {
                Ok(request) => request_expansion(request, &place),
                Err(error) => Expansion {
                    function: TokenStream::new(),
                    module: error.to_compile_error(),
                },
            };
        *item = ImplItem::Verbatim(function);
        modules.push(module);
    }

    // The attributes are taken, not expanded: a use of each path keeps its
    // import from being reported unused (a block's `use` resolves as the
    // attribute did, in the scope around it).
    let uses = (!attribute_paths.is_empty()).then(|| {
        quote! {
            const _: () = {
                #(#[allow(unused_imports)] use #attribute_paths as _;)*
            };
        }
    });
    Ok(quote! {
        #block

        #uses

        #(#modules)*
    })
}

/// An `impl` item split into its outer attributes and the rest.
struct Item {
    attrs: Vec<Attribute>,
    rest: TokenStream,
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(Item {
            attrs: input.call(Attribute::parse_outer)?,
            rest: input.parse()?,
        })
    }
}

/// `#[redis_script(…)]` or `#[redis_function(…)]`, by any path.
fn binding_kind(attr: &Attribute) -> Option<Kind> {
    let last = attr.path().segments.last()?;
    if last.ident == "redis_script" {
        Some(Kind::Script)
    } else if last.ident == "redis_function" {
        Some(Kind::Function)
    } else {
        None
    }
}

/// The last segment of the `impl`'s type (`Jobs` in `impl Jobs`,
/// `impl<T> jobs::Jobs<T>`), which names the hidden module.
fn type_name(ty: &Type) -> syn::Result<syn::Ident> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.clone())
            .ok_or_else(|| syn::Error::new_spanned(ty, "expected a type name")),
        _ => Err(syn::Error::new_spanned(
            ty,
            "#[bindings] goes on the `impl` of a named type (`impl Jobs`)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::bindings;
    use quote::quote;
    use syn::{File, ImplItem, Item};

    fn expand(args: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> File {
        syn::parse2(bindings(args, item)).expect("the expansion parses as items")
    }

    fn error_of(file: &File) -> Option<String> {
        file.items.iter().find_map(|item| match item {
            Item::Macro(mac)
                if mac
                    .mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                Some(mac.mac.tokens.to_string())
            }
            _ => None,
        })
    }

    #[test]
    fn binding_becomes_associated_function_with_hidden_module_beside() {
        // A file that does not exist: the stub's shape is the same.
        let file = expand(
            quote!(),
            quote! {
                impl Jobs {
                    #[redis_script(file = "no/such/claim.lua", keys = 1)]
                    pub fn claim(queue: &str) -> Option<String>;
                    const OTHER: u8 = 1;
                }
            },
        );
        let Some(Item::Impl(block)) = file.items.first() else {
            panic!("the impl comes first");
        };
        let text = quote!(#block).to_string();
        assert!(text.contains("fn claim ("), "{text}");
        assert!(text.contains("fn claim_script ()"), "{text}");
        assert!(text.contains("const OTHER"), "{text}");
        assert!(
            !text.contains("redis_script ("),
            "the attribute is taken: {text}"
        );
        assert!(block.items.iter().all(|item| !matches!(item, ImplItem::Verbatim(tokens) if tokens.to_string().contains("mod "))));
        let hidden = file.items.iter().any(
            |item| matches!(item, Item::Mod(module) if module.ident == "__redis_script_Jobs_claim"),
        );
        assert!(hidden, "{}", quote!(#file));
        assert!(error_of(&file).is_some(), "the missing file is reported");
    }

    #[test]
    fn trait_impl_is_refused() {
        let file = expand(quote!(), quote!(impl Clone for Jobs {}));
        assert!(error_of(&file).unwrap().contains("inherent"));
    }

    #[test]
    fn arguments_are_refused() {
        let file = expand(quote!(jobs), quote!(impl Jobs {}));
        assert!(error_of(&file).unwrap().contains("no arguments"));
    }

    #[test]
    fn impl_of_unnamed_type_is_refused() {
        let file = expand(quote!(), quote!(impl [u8] {}));
        assert!(error_of(&file).unwrap().contains("named type"));
    }

    #[test]
    fn impl_without_bindings_is_left_alone() {
        let file = expand(quote!(), quote!(impl Jobs { fn f() {} }));
        assert_eq!(file.items.len(), 1);
    }
}
