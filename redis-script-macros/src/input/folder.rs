//! `scripts!("scripts/lock")`: the folder, and a [`Request`] per script of
//! it, each file read once and its header parsed once, the binding built
//! from the header.

use std::path::Path;

use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};

use redis_script_analyzer::header as analyzer_header;

use crate::errors::Errors;
use crate::input::header;
use crate::input::manifest::Manifest;
use crate::input::request::Request;
use crate::input::script_file::{ScriptFile, resolve_dir};

/// `"dir"`, or `pub mod name = "dir"`.
pub struct Input {
    pub vis: Visibility,
    pub name: Option<Ident>,
    pub dir: LitStr,
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

/// The requests of the scripts of `input`'s folder, all sharing
/// `manifest`; a script that cannot be bound has its error in `errors`, a
/// folder that cannot be read is the `Err`.
pub fn requests<'m>(
    input: &Input,
    manifest: &'m syn::Result<Manifest>,
    errors: &mut Errors,
) -> syn::Result<Vec<Request<'m>>> {
    let relative = input.dir.value();
    let files = resolve_dir(&input.dir)?;
    let krate = quote!(::redis_script);
    let mut requests = Vec::new();
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
        let Some(ident) = binding_name(name, &lit, errors) else {
            continue;
        };
        let parsed = match analyzer_header::parse(script.own_source()) {
            Ok(Some(parsed)) => parsed,
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
                header::header_errors(&lit, script.own_source(), &header_errors, errors);
                continue;
            }
        };
        if parsed.reply.is_none() {
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
        let binding = header::binding(&ident, &parsed, &krate, input.dir.span());
        requests.push(Request::from_header(binding, lit, script, parsed, manifest));
    }
    Ok(requests)
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
pub fn default_module_name(relative: &str) -> Option<String> {
    let last = relative
        .trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()?;
    let name = last.replace('-', "_");
    syn::parse_str::<Ident>(&name).ok().map(|_| name)
}
