//! `scripts!("scripts/lock")`: a module with one binding per script of a
//! folder, each declared by the script's own header.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

use crate::errors::Errors;
use crate::expand;
use crate::input::folder::{Input, default_module_name, requests};
use crate::input::manifest::Manifest;

/// The expansion of `scripts!(input)`.
pub fn scripts(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let mut errors = Errors::default();
    let relative = input.dir.value();
    // Read once for the whole folder.
    let manifest = Manifest::read(Span::call_site());
    let requests = match requests(&input, &manifest, &mut errors) {
        Ok(requests) => requests,
        Err(error) => return error.to_compile_error(),
    };
    let bindings: Vec<TokenStream> = requests.into_iter().map(expand::request_tokens).collect();
    let error = errors
        .into_result()
        .err()
        .map(|error| error.to_compile_error());
    let items = quote!(#error #(#bindings)*);
    let vis = &input.vis;
    let name = match input.name {
        Some(name) => name,
        None => match default_module_name(&relative) {
            Some(name) => Ident::new(&name, input.dir.span()),
            None => {
                return syn::Error::new(
                    input.dir.span(),
                    format!(
                        "the folder `{relative}` has no name a module can take: name the \
                         module, e.g. `scripts!(pub mod lua = \"{relative}\")`"
                    ),
                )
                .to_compile_error();
            }
        },
    };
    let doc =
        format!(" The scripts of `{relative}`, one function each, declared by their headers.");
    quote! {
        #[doc = #doc]
        #vis mod #name {
            #items
        }
    }
}
