//! One binding to check and expand, whichever route it came by: an
//! attribute (`#[redis_script]`, `#[redis_function]`) or a headed script of
//! a `scripts!` folder. Each input is read once here; nothing is turned
//! back into tokens to be parsed again.

use proc_macro2::{Span, TokenStream};
use syn::{LitInt, LitStr};

use redis_script_analyzer::header::{self, Header, HeaderError};

use crate::errors::Errors;
use crate::input::ast::Binding;
use crate::input::attr::{Args, Keys, Kind, RawArgs};
use crate::input::manifest::Manifest;
use crate::input::script_file::ScriptFile;

/// The header of a script: parsed once, its mistakes kept for the checks.
pub type HeaderResult = Result<Option<Header>, Vec<HeaderError>>;

/// A binding, its arguments, its Lua file and header, and the crate's
/// target servers.
pub struct Request<'m> {
    pub kind: Kind,
    pub binding: Binding,
    /// `None` when the attribute's arguments do not parse (reported in
    /// `errors`).
    pub args: Option<Args>,
    /// The Lua file, read once; `None` when no file is named.
    pub script: Option<syn::Result<ScriptFile>>,
    /// The file's header, parsed once; `None` when the file is not read.
    pub header: Option<HeaderResult>,
    /// The crate's `Cargo.toml`, read once per macro invocation.
    pub manifest: &'m syn::Result<Manifest>,
    /// Mistakes found while reading the arguments, reported first.
    pub errors: Errors,
}

impl<'m> Request<'m> {
    /// `#[redis_script(args)] item` or `#[redis_function(args)] item`;
    /// `Err` when `item` is no function declaration at all.
    pub fn from_attribute(
        kind: Kind,
        args: TokenStream,
        item: TokenStream,
        manifest: &'m syn::Result<Manifest>,
    ) -> syn::Result<Request<'m>> {
        let binding = syn::parse2::<Binding>(item)?;
        let mut errors = Errors::default();
        let args = errors
            .take(syn::parse2::<RawArgs>(args))
            .map(|raw| Args::from_raw(raw, kind, &mut errors));
        let script = args
            .as_ref()
            .and_then(|args| args.file.as_ref())
            .map(ScriptFile::read);
        let header = match &script {
            Some(Ok(script)) => Some(header::parse_optional(script.own_source())),
            _ => None,
        };
        Ok(Request {
            kind,
            binding,
            args,
            script,
            header,
            manifest,
            errors,
        })
    }

    /// A headed script of a `scripts!` folder: `file` read from `lit`, its
    /// `header`, and the `binding` built from that header.
    pub fn from_header(
        binding: Binding,
        lit: LitStr,
        script: ScriptFile,
        header: Header,
        manifest: &'m syn::Result<Manifest>,
    ) -> Request<'m> {
        let count = crate::input::header::key_parameters(&header);
        // As `keys = N` would be written by a macro: a `usize` literal at
        // the call site.
        let keys = Keys {
            count,
            lit: LitInt::new(&format!("{count}usize"), Span::call_site()),
        };
        Request {
            kind: Kind::Script,
            binding,
            args: Some(Args::from_header(lit, keys)),
            script: Some(Ok(script)),
            header: Some(Ok(Some(header))),
            manifest,
            errors: Errors::default(),
        }
    }

    /// The `file = "..."` literal, when given.
    pub fn file(&self) -> Option<&LitStr> {
        self.args.as_ref().and_then(|args| args.file.as_ref())
    }

    /// `keys = N`, when given.
    pub fn keys(&self) -> Option<&Keys> {
        self.args.as_ref().and_then(|args| args.keys.as_ref())
    }

    /// The script, when it was read.
    pub fn script(&self) -> Option<&ScriptFile> {
        self.script.as_ref().and_then(|script| script.as_ref().ok())
    }

    /// The function a `#[redis_function]` binding calls: `name = "..."`, or
    /// the binding's own name.
    pub fn function_name(&self) -> Option<String> {
        let args = self.args.as_ref()?;
        Some(
            args.name
                .as_ref()
                .map_or_else(|| self.binding.sig.ident.to_string(), LitStr::value),
        )
    }
}
