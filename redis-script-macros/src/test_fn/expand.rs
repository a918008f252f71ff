//! The `#[test]` a `#[redis_script::test]` function becomes.
//!
//! ```ignore
//! #[test]
//! fn name() {
//!     fn name(con: &mut redis::Connection) { ... }       // as written
//!     fn body(setup: &Setup) -> Result<(), String> {     // one run
//!         let mut arg0 = <redis::Connection as TestArg>::from_setup(setup)?;
//!         Outcome::into_result(name(&mut arg0))
//!     }
//!     run(&Options { ... }, body);                       // each server
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Meta, Token, Type};

use super::attr::{Args, Topology};
use crate::errors::Errors;

/// Where the generated code finds the harness: the dev-dependency
/// `redis-script-test`, which the test's crate names.
fn harness() -> TokenStream {
    quote!(::redis_script_test)
}

pub fn test(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let args =
        match syn::parse::Parser::parse2(Punctuated::<Meta, Token![,]>::parse_terminated, args) {
            Ok(args) => Args::parse(args, &mut errors),
            Err(error) => return error.to_compile_error(),
        };
    let function: ItemFn = match syn::parse2(item) {
        Ok(function) => function,
        Err(error) => {
            let mut error = error;
            error.combine(syn::Error::new(
                error.span(),
                "#[redis_script::test] goes on a function: `fn name(con: &mut redis::Connection) { ... }`",
            ));
            return error.to_compile_error();
        }
    };
    validate(&function, &mut errors);
    if let Err(error) = errors.into_result() {
        return error.to_compile_error();
    }
    expand(&args, &function)
}

/// A test function takes values, not generics or `self`, and is not
/// `const` or `unsafe`.
fn validate(function: &ItemFn, errors: &mut Errors) {
    let sig = &function.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a #[redis_script::test] function cannot be generic: the harness makes each \
             parameter from its type",
        ));
    }
    for (what, token) in [
        ("const", sig.constness.map(|t| t.span)),
        (
            "unsafe",
            match &sig.safety {
                syn::Safety::Unsafe(token) => Some(token.span),
                _ => None,
            },
        ),
        ("extern", sig.abi.as_ref().map(|abi| abi.extern_token.span)),
    ] {
        if let Some(span) = token {
            errors.push(syn::Error::new(
                span,
                format!("a #[redis_script::test] function cannot be `{what}`"),
            ));
        }
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a #[redis_script::test] function cannot be variadic",
        ));
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => errors.push(syn::Error::new_spanned(
                receiver,
                "a #[redis_script::test] function is free-standing: it cannot take `self`",
            )),
            FnArg::Typed(typed) => {
                let ty = match &*typed.ty {
                    Type::Reference(reference) => &*reference.elem,
                    other => other,
                };
                if let Type::ImplTrait(_) = ty {
                    errors.push(syn::Error::new_spanned(
                        ty,
                        "a #[redis_script::test] parameter names its type (`redis::Connection`, \
                         `&RedisServer`, ...): the harness makes it from the type, and \
                         `impl Trait` names none",
                    ));
                }
            }
        }
    }
    // Another test attribute would run the function a second way.
    for attr in &function.attrs {
        let last = attr
            .path()
            .segments
            .last()
            .map(|segment| segment.ident.to_string());
        if last.as_deref() == Some("test") {
            errors.push(syn::Error::new_spanned(
                attr,
                "#[redis_script::test] makes the function a test: remove this attribute",
            ));
        }
    }
}

fn expand(args: &Args, function: &ItemFn) -> TokenStream {
    let harness = harness();
    let name = &function.sig.ident;
    let is_async = function.sig.asyncness.is_some();
    // The attributes other than the function's own go on the `#[test]`
    // (`#[ignore]`, `#[should_panic]`, docs); the inner function keeps
    // none but its lints.
    let (inner_attrs, outer_attrs): (Vec<_>, Vec<_>) = function.attrs.iter().partition(|attr| {
        ["allow", "expect", "warn", "deny"]
            .iter()
            .any(|lint| attr.path().is_ident(lint))
    });
    let mut inner = function.clone();
    inner.attrs = inner_attrs.into_iter().cloned().collect();
    inner.vis = syn::Visibility::Inherited;

    let mut makes = Vec::new();
    let mut passes = Vec::new();
    for (index, input) in function.sig.inputs.iter().enumerate() {
        let FnArg::Typed(typed) = input else { continue };
        let arg = format_ident!("__redis_script_test_arg{index}");
        // `&mut T`: a `T` made and lent; anything else made as written.
        let (made, lend_mut) = match &*typed.ty {
            Type::Reference(reference) if reference.mutability.is_some() => {
                (&*reference.elem, true)
            }
            other => (other, false),
        };
        let span = typed.ty.span();
        let make = if is_async {
            quote_spanned!(span=> <#made as #harness::AsyncTestArg<'_>>::from_setup_async(__redis_script_test_setup).await?)
        } else {
            quote_spanned!(span=> <#made as #harness::TestArg<'_>>::from_setup(__redis_script_test_setup)?)
        };
        makes.push(quote!(#[allow(unused_mut)] let mut #arg = #make;));
        passes.push(if lend_mut {
            quote!(&mut #arg)
        } else {
            quote!(#arg)
        });
    }

    let call = if is_async {
        quote! {
            #harness::__private::block_on(async move {
                #(#makes)*
                #harness::__private::Outcome::into_result(#name(#(#passes),*).await)
            })
        }
    } else {
        quote! {
            #(#makes)*
            #harness::__private::Outcome::into_result(#name(#(#passes),*))
        }
    };

    let topology = match args.topology {
        Topology::Server => quote!(#harness::__private::Topology::Server),
        Topology::Replica => quote!(#harness::__private::Topology::Replica),
        Topology::Cluster { replicas } => {
            quote!(#harness::__private::Topology::Cluster { replicas: #replicas })
        }
    };
    let fixtures = args.fixtures.iter().map(|fixture| {
        let written = &fixture.lit;
        let absolute = fixture.absolute.to_string_lossy();
        // `include_str!`: the text is in the test binary, and an edit of
        // the file rebuilds the test.
        quote!((#written, ::core::include_str!(#absolute)))
    });
    let load_all = args.load_all;
    let timeout = match args.timeout_secs {
        Some(secs) => {
            quote!(::core::option::Option::Some(::core::time::Duration::from_secs(#secs)))
        }
        None => quote!(::core::option::Option::None),
    };
    let name_text = name.to_string();
    let vis = &function.vis;

    quote! {
        // Named in full: a `test` imported in the test's module (tokio's,
        // or this very attribute) would otherwise take its place.
        #[::core::prelude::v1::test]
        #(#outer_attrs)*
        #vis fn #name() {
            #inner

            fn __redis_script_test_body(
                __redis_script_test_setup: &#harness::Setup,
            ) -> ::core::result::Result<(), ::std::string::String> {
                #call
            }

            #harness::__private::run(
                &#harness::__private::Options {
                    name: #name_text,
                    topology: #topology,
                    fixtures: &[#(#fixtures),*],
                    load_all: #load_all,
                    timeout: #timeout,
                },
                __redis_script_test_body,
            );
        }
    }
}
