//! `scripts!("scripts/lock")`: a module with one binding per script of a
//! folder, each declared by the script's own header.

use std::path::Path;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};

use redis_script_analyzer::header;

use crate::errors::Errors;
use crate::expand;
use crate::input::request::Request;
use crate::manifest::Manifest;
use crate::script_file::{ScriptFile, resolve_dir};
use crate::signature;

/// `"dir"`, or `pub mod name = "dir"`.
struct Input {
    vis: Visibility,
    name: Option<Ident>,
    dir: LitStr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(Input {
                vis: Visibility::Inherited,
                name: None,
                dir: input.parse()?,
            });
        }
        let vis: Visibility = input.parse()?;
        input.parse::<Token![mod]>().map_err(|error| {
            syn::Error::new(
                error.span(),
                "scripts! takes a folder, e.g. `scripts!(\"scripts/lock\")`, or a module and a \
                 folder, e.g. `scripts!(pub mod lock = \"scripts/lock\")`",
            )
        })?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let dir: LitStr = input.parse()?;
        input.parse::<Option<Token![,]>>()?;
        Ok(Input {
            vis,
            name: Some(name),
            dir,
        })
    }
}

/// The expansion of `scripts!(input)`.
pub fn scripts(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<Input>(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let mut errors = Errors::default();
    let relative = input.dir.value();
    let files = match resolve_dir(&input.dir) {
        Ok(files) => files,
        Err(error) => return error.to_compile_error(),
    };
    let krate = quote!(::redis_script);
    // Read once for the whole folder.
    let manifest = Manifest::read(Span::call_site());
    let mut bindings = Vec::new();
    for file in files {
        let name = file
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or_default();
        let relative_file = format!("{}/{}", relative.trim_end_matches('/'), file_name(&file));
        let lit = LitStr::new(&relative_file, input.dir.span());
        let Some(script) = errors.take(ScriptFile::read(&lit)) else {
            continue;
        };
        let Some(ident) = binding_name(name, &lit, &mut errors) else {
            continue;
        };
        let header = match header::parse(script.own_source()) {
            Ok(Some(header)) => header,
            Ok(None) => {
                errors.push(syn::Error::new(
                    lit.span(),
                    format!(
                        "`{relative_file}` has no signature header, so scripts! cannot bind it\n\
                         help: open the script with lines such as `---@key lock string`, \
                         `---@param ttl_ms integer` and `---@return string?`, or bind it \
                         with #[redis_script] outside this folder"
                    ),
                ));
                continue;
            }
            Err(header_errors) => {
                signature::header_errors(&lit, script.own_source(), header_errors, &mut errors);
                continue;
            }
        };
        if header.reply.is_none() {
            errors.push(syn::Error::new(
                lit.span(),
                format!(
                    "the header of `{relative_file}` declares no reply\n\
                     help: add a `---@return <type>` line, e.g. `---@return integer` \
                     (`---@return nil` for a script that replies nothing)"
                ),
            ));
            continue;
        }
        let binding = signature::binding(&ident, &header, &krate, input.dir.span());
        let request = Request::from_header(binding, lit, script, header, &manifest);
        bindings.push(expand::request_tokens(request));
    }
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

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The function a script file becomes: its stem, which must be a Rust name.
fn binding_name(stem: &str, lit: &LitStr, errors: &mut Errors) -> Option<Ident> {
    let name = stem.replace('-', "_");
    match syn::parse_str::<Ident>(&name) {
        Ok(ident) => Some(Ident::new(&ident.to_string(), lit.span())),
        Err(_) => {
            errors.push(syn::Error::new(
                lit.span(),
                format!(
                    "`{}` cannot be bound: its name `{stem}` is not a Rust function name \
                     (a keyword, or it starts with a digit)\n\
                     help: rename the file, e.g. `{stem}_script.lua`",
                    lit.value()
                ),
            ));
            None
        }
    }
}

/// A folder's last component as a module name, when it is one.
fn default_module_name(relative: &str) -> Option<String> {
    let last = relative
        .trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()?;
    let name = last.replace('-', "_");
    syn::parse_str::<Ident>(&name).ok().map(|_| name)
}
