//! Code generation: the typed function and its `SCRIPT` metadata module.

pub mod folder;
pub mod impl_block;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::{Ident, LitStr, Type};

use crate::check;
use crate::check::script::Checked;
use crate::input::ast::{Binding, Param, Split};
use crate::input::attr::Kind;
use crate::input::manifest::Manifest;
use crate::input::request::Request;
use crate::input::script_file::ScriptFile;
use crate::reply_type::{self, Reading};

/// `#[redis_script(args)] item`, as tokens in and out; errors become
/// `compile_error!`s beside a stub of the function, so call sites do not add
/// errors of their own.
pub fn redis_script(args: TokenStream, item: TokenStream) -> TokenStream {
    binding(Kind::Script, args, item)
}

/// `#[redis_function(args)] item`: the same, for a function of a library.
pub fn redis_function(args: TokenStream, item: TokenStream) -> TokenStream {
    binding(Kind::Function, args, item)
}

fn binding(kind: Kind, args: TokenStream, item: TokenStream) -> TokenStream {
    let manifest = Manifest::read(Span::call_site());
    match Request::from_attribute(kind, args, item, &manifest) {
        Ok(request) => request_tokens(request),
        Err(error) => error.to_compile_error(),
    }
}

/// A request, checked then expanded: its function and module, or beside
/// its errors a stub of them.
pub fn request_tokens(request: Request) -> TokenStream {
    let Expansion { function, module } = request_expansion(request, &Place::Module);
    quote!(#function #module)
}

/// Where a binding stands, which decides where its metadata goes.
pub enum Place {
    /// A module: `mod <name>` beside the function (the attribute alone).
    Module,
    /// An `impl` block rewritten by `#[bindings]`: the function is an
    /// associated function, `<name>_script()` returns its `Script`, and
    /// `mod <name>` goes in a hidden module beside the `impl`,
    /// `__redis_script_<Type>_<name>`: one a binding, so two `impl` blocks
    /// of a type do not collide (their functions' names cannot).
    Impl {
        /// The type's name (its path's last segment).
        self_ty: Ident,
    },
}

/// A binding's expansion, in two parts: `function` where the binding was
/// written (a module or an `impl`), `module` where modules may stand.
pub struct Expansion {
    pub function: TokenStream,
    pub module: TokenStream,
}

/// [`request_tokens`], for a binding at `place`; errors go with the module,
/// which stands at module level in either place.
pub fn request_expansion(mut request: Request, place: &Place) -> Expansion {
    let mut errors = std::mem::take(&mut request.errors);
    let checked = check::check(&request, &mut errors);
    let binding = &request.binding;
    let krate = match request.args.as_ref().and_then(|args| args.krate.as_ref()) {
        Some(path) => quote!(#path),
        None => quote!(::redis_script),
    };
    let (file, keys, script) = (request.file(), request.keys(), request.script());
    let manifest = request.manifest.as_ref().ok();

    match (errors.into_result(), file, keys, script, checked) {
        (Ok(()), Some(file), Some(keys), Some(script), Some(checked)) => expand(
            binding,
            &Source::File {
                lit: file,
                script,
                checked: &checked,
                function: (request.kind == Kind::Function)
                    .then(|| request.function_name())
                    .flatten(),
            },
            keys.count,
            manifest,
            &krate,
            place,
        ),
        (result, ..) => {
            let error = result.err().map(|error| error.to_compile_error());
            let keys = keys.map_or(0, |keys| keys.count);
            let Expansion { function, module } =
                expand(binding, &Source::Stub, keys, manifest, &krate, place);
            Expansion {
                function,
                module: quote!(#error #module),
            }
        }
    }
}

/// Where the expansion's script comes from.
enum Source<'a> {
    File {
        lit: &'a LitStr,
        script: &'a ScriptFile,
        checked: &'a Checked,
        /// For `#[redis_function]`: the function it calls.
        function: Option<String>,
    },
    /// Beside a compile error: nothing to read, and nothing will run.
    Stub,
}

/// The function and its module; `krate` is the path of the facade.
fn expand(
    binding: &Binding,
    source: &Source,
    keys: usize,
    manifest: Option<&Manifest>,
    krate: &TokenStream,
    place: &Place,
) -> Expansion {
    let private = quote!(#krate::__private);
    let name = &binding.sig.ident;
    // Where the function's body, and the accessor of an associated one,
    // find the metadata.
    let hidden = match place {
        Place::Module => None,
        Place::Impl { self_ty } => Some(quote::format_ident!(
            "__redis_script_{}_{}",
            self_ty.unraw(),
            name.unraw()
        )),
    };
    let script_path = match &hidden {
        None => quote!(#name::SCRIPT),
        Some(hidden) => quote!(#hidden::#name::SCRIPT),
    };
    let vis = &binding.vis;
    let reply = binding.reply_type();
    let reply_name = reply_type::type_name(&reply);
    let shape = reply_shape(&reply, &private);
    let Split {
        keys: key_params,
        variadic_keys,
        args: fixed_args,
        variadic,
    } = binding.split(keys);
    let key_names = key_params.iter().map(|param| param.ident.to_string());
    let arg_names = fixed_args.iter().map(|param| param.ident.to_string());
    let is_variadic = variadic.is_some();
    let has_variadic_keys = variadic_keys.is_some();

    // A hygienic local cannot collide with a parameter name.
    let call = Ident::new("call", Span::mixed_site());
    // Spanned at the parameter's type, where an error of its bound
    // (`Argument`: a type that is no `ToRedisArgs`) belongs.
    let singles = |params: &[Param]| -> Vec<TokenStream> {
        params
            .iter()
            .map(|param| {
                let label = param.ident.to_string();
                let (value, span) = at_type(param);
                quote_spanned!(span=> #call.single(#label, &#value);)
            })
            .collect()
    };
    let (key_singles, arg_singles) = (singles(key_params), singles(fixed_args));
    let key_list = variadic_keys.map(|param| {
        let (value, span) = at_type(param);
        quote_spanned!(span=> #call.variadic_keys(&#value);)
    });
    let tail = variadic.map(|param| {
        let (value, span) = at_type(param);
        quote_spanned!(span=> #call.variadic(&#value);)
    });

    let (file_name, source_expr, sha1, body, flags, read_only) = match source {
        Source::File {
            lit,
            script,
            checked,
            ..
        } => {
            let warnings = &checked.warnings;
            let path = script.path.to_string_lossy().into_owned();
            // A composed script is sent as composed; each file it is made
            // of is included for Cargo to watch.
            let source = if script.composed.has_includes() {
                let text = &script.source;
                let watched = std::iter::once(script.path.clone())
                    .chain(script.included_paths())
                    .map(|path| path.to_string_lossy().into_owned());
                quote!({
                    #(const _: &[u8] = ::core::include_bytes!(#watched);)*
                    #text
                })
            } else {
                quote!(::core::include_str!(#path))
            };
            (
                lit.value(),
                source,
                script.sha1.clone(),
                quote! {
                    // The script's warnings, as uses of deprecated items.
                    #warnings
                    // The binding's own metadata, deprecated with it if it is.
                    #[allow(deprecated)]
                    let mut #call = #private::Invocation::new(&#script_path);
                    #(#key_singles)*
                    #key_list
                    #(#arg_singles)*
                    #tail
                    #call
                },
                checked.flags.clone(),
                checked.read_only,
            )
        }
        Source::Stub => (
            String::new(),
            quote!(""),
            String::new(),
            quote!(::core::unreachable!()),
            Vec::new(),
            false,
        ),
    };

    let attrs = &binding.attrs;
    // What hides or deprecates the function does the same to its metadata;
    // doc comments stay with the function.
    let module_attrs = binding.attrs.iter().filter(|attr| {
        attr.path().is_ident("deprecated")
            || (attr.path().is_ident("doc") && !matches!(attr.meta, syn::Meta::NameValue(_)))
    });
    let generated_doc = generated_doc(
        binding,
        source,
        &file_name,
        &sha1,
        &binding.split(keys),
        place,
    );
    // Items inside the module name the function from there: rustdoc
    // resolves their links in the module (the binding's name spans it, see
    // below), where only `super::` reaches the function. In an `impl`'s
    // hidden module the function is named, not linked.
    let (module_doc, function_link) = match place {
        Place::Module => (
            format!("The script behind [`{name}()`](fn@{name})."),
            format!("[`{name}()`](fn@super::{name})"),
        ),
        Place::Impl { self_ty } => (
            format!("The script behind `{self_ty}::{name}()`."),
            format!("`{self_ty}::{name}()`"),
        ),
    };
    let script_doc =
        format!("Static metadata of `{file_name}`, the script behind {function_link}.");
    let generics = &binding.sig.generics;
    let where_clause = &generics.where_clause;
    let params = binding
        .params
        .iter()
        .map(|Param { ident, ty, .. }| quote!(#ident: #ty));
    let stub_allow = matches!(source, Source::Stub).then(|| quote!(#[allow(unused_variables)]));
    // Cargo rebuilds the crate when a file the expansion includes changes:
    // so a change of the target servers in Cargo.toml re-runs the checks.
    let track_manifest = manifest.map(|manifest| {
        let path = manifest.path.to_string_lossy().into_owned();
        quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });

    // A function's library: its code is the source, and FCALL names the
    // function instead of a SHA1.
    let (library_items, function_field, source_expr, sha1) = match source {
        Source::File {
            function: Some(function),
            checked,
            ..
        } => {
            let library = checked.library.clone().unwrap_or_default();
            let library_doc = format!(
                "The Lua library `{library}` (`{file_name}`), which {function_link} calls a function of."
            );
            (
                quote! {
                    const CODE: &str = #source_expr;
                    #[doc = #library_doc]
                    pub static LIBRARY: #private::Library = #private::Library::new(#library, #file_name, CODE);
                },
                quote!(::core::option::Option::Some((&LIBRARY, #function))),
                quote!(CODE),
                String::new(),
            )
        }
        _ => (
            TokenStream::new(),
            quote!(::core::option::Option::None),
            source_expr,
            sha1,
        ),
    };

    // Listed for `registry::scripts` and `load_all`; a stub runs nothing.
    let registration =
        matches!(source, Source::File { .. }).then(|| quote!(#private::register_script!(SCRIPT);));

    // A module cannot stand in an `impl` block, and a macro cannot tell
    // where it stands: spanned at the binding's name, rustc's error there
    // ("module is not supported in `trait`s or `impl`s") points at the
    // name rather than at the whole attribute.
    // In a hidden module, the binding's module is `pub` for the `impl`
    // beside it; its accessor has the function's visibility.
    let module_vis = match place {
        Place::Module => quote!(#vis),
        Place::Impl { .. } => quote!(pub),
    };
    // An impl binding's module path names its hidden module; the runtime
    // puts `Type::name` in its place, in const context.
    let binding_path = match place {
        Place::Module => quote!(::core::module_path!()),
        Place::Impl { self_ty } => {
            let type_and_name = format!("{}::{}", self_ty.unraw(), name.unraw());
            quote!({
                const LEN: usize = #private::impl_path::len(::core::module_path!(), #type_and_name);
                static PATH: [u8; LEN] = #private::impl_path::bytes(::core::module_path!(), #type_and_name);
                #private::impl_path::as_str(&PATH)
            })
        }
    };
    let module = quote_spanned! {name.span()=>
        #(#module_attrs)*
        #[doc = #module_doc]
        #module_vis mod #name {
            #track_manifest
            #library_items

            #[doc = #script_doc]
            pub static SCRIPT: #private::Script = #private::Script::from_parts(#private::ScriptParts {
                name: ::core::stringify!(#name),
                binding_path: #binding_path,
                file: #file_name,
                source: #source_expr,
                sha1: #sha1,
                key_names: &[#(#key_names),*],
                arg_names: &[#(#arg_names),*],
                variadic_keys: #has_variadic_keys,
                variadic: #is_variadic,
                reply_type: #reply_name,
                reply_shape: &#shape,
                flags: &[#(#flags),*],
                read_only: #read_only,
                function: #function_field,
            });

            #registration
        }
    };
    let module = match &hidden {
        None => module,
        Some(hidden) => quote! {
            #[doc(hidden)]
            #[allow(non_snake_case)]
            mod #hidden {
                #module
            }
        },
    };

    // The signature names the public path, which docs and errors show the
    // user; the body and the metadata reach the runtime through `__private`.
    // An associated function's metadata, reached through its type.
    let accessor = match place {
        Place::Module => None,
        Place::Impl { self_ty } => {
            let accessor = quote::format_ident!("{}_script", name);
            let doc = format!(
                "The metadata of `{file_name}`, the script behind [`{self_ty}::{name}()`](Self::{name})."
            );
            let deprecated = binding.attrs.iter().filter(|attr| {
                attr.path().is_ident("deprecated")
                    || (attr.path().is_ident("doc")
                        && !matches!(attr.meta, syn::Meta::NameValue(_)))
            });
            Some(quote! {
                #(#deprecated)*
                #[doc = #doc]
                #[allow(deprecated)]
                #vis fn #accessor() -> &'static #krate::Script {
                    &#script_path
                }
            })
        }
    };
    Expansion {
        function: quote! {
            #(#attrs)*
            #(#[doc = #generated_doc])*
            #stub_allow
            #vis fn #name #generics (#(#params),*) -> #krate::Invocation<#reply> #where_clause {
                #body
            }

            #accessor
        },
        module,
    }
}

/// A parameter's name, and a span, both at its type's last token (`Token`
/// in `&Token`; a span joins tokens only on nightly): where an error about
/// the value's type belongs.
fn at_type(param: &Param) -> (Ident, Span) {
    let span = param
        .ty
        .to_token_stream()
        .into_iter()
        .last()
        .map_or_else(|| param.ident.span(), |token| token.span());
    // Located at the type, resolved as the parameter is (a binding written
    // inside `macro_rules!` keeps its hygiene).
    let mut value = param.ident.clone();
    value.set_span(span.resolved_at(param.ident.span()));
    (value, span)
}

/// Doc lines appended to the user's own: what the function runs and how its
/// parameters map onto KEYS and ARGV.
fn generated_doc(
    binding: &Binding,
    source: &Source,
    file: &str,
    sha1: &str,
    split: &Split,
    place: &Place,
) -> Vec<String> {
    let Split {
        keys,
        variadic_keys,
        args,
        variadic,
    } = split;
    let name = &binding.sig.ident;
    // Where the docs send the reader for the metadata.
    let (script_link, library_link) = match place {
        Place::Module => (
            format!("[`{name}::SCRIPT`]"),
            format!("[`{name}::LIBRARY`]"),
        ),
        Place::Impl { .. } => (
            format!("[`Self::{name}_script()`]"),
            format!("`Self::{name}_script().library()`"),
        ),
    };
    let list = |params: &[Param], table: &str| -> String {
        params
            .iter()
            .enumerate()
            .map(|(i, param)| format!("`{table}[{}]` = `{}`", i + 1, param.ident))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = Vec::new();
    if binding.attrs.iter().any(|attr| attr.path().is_ident("doc")) {
        lines.push(String::new());
    }
    lines.push(match source {
        Source::File {
            function: Some(function),
            checked,
            ..
        } => format!(
            " Calls the function `{function}` of the Lua library `{}` (`{file}`) with FCALL; \
             its metadata is {script_link}, its library {library_link}.",
            checked.library.as_deref().unwrap_or_default()
        ),
        _ => {
            format!(" Runs the Lua script `{file}` (SHA1 `{sha1}`); its metadata is {script_link}.")
        }
    });
    lines.push(String::new());
    if !keys.is_empty() {
        lines.push(format!(" KEYS: {}.", list(keys, "KEYS")));
    }
    if let Some(param) = variadic_keys {
        lines.push(format!(
            " `{}` fills `KEYS[{}]` onwards: each call passes as many keys as it holds, \
             none included.",
            param.ident,
            keys.len() + 1
        ));
    }
    if !args.is_empty() {
        lines.push(format!(" ARGV: {}.", list(args, "ARGV")));
    }
    if let Some(param) = variadic {
        lines.push(format!(
            " `{}` fills `ARGV[{}]` onwards.",
            param.ident,
            args.len() + 1
        ));
    }
    lines.push(String::new());
    lines.push(
        " Run the returned call with `.invoke(&mut con)`, `.invoke_async(&mut con).await`, \
         or queue it in a pipeline with `ScriptPipeline::evalsha_script`."
            .to_owned(),
    );
    lines
}

/// Where integers sit in the declared reply type, as `Shape` tokens, so the
/// runtime can refuse an integer reply out of a narrower type's range.
/// Recognized by name: integers, `Option`, `Vec`, `HashSet`/`BTreeSet`,
/// `HashMap`/`BTreeMap`, tuples, and `Value` (as the nil check reads it:
/// `redis::Value`), whose shape `Raw` passes the reply on as sent; the rest
/// is `Any`, a generic `T` included.
fn reply_shape(ty: &Type, private: &TokenStream) -> TokenStream {
    match reply_type::read(ty) {
        Reading::Tuple(elems) => {
            let shapes = elems.into_iter().map(|elem| reply_shape(elem, private));
            quote!(#private::Shape::Tuple(&[#(#shapes),*]))
        }
        Reading::Named(name, Some(inner)) if name == "Option" || name == "Vec" => {
            let inner = reply_shape(inner, private);
            let wrapper = if name == "Option" {
                quote!(Option)
            } else {
                quote!(Seq)
            };
            quote!(#private::Shape::#wrapper(&#inner))
        }
        Reading::Named(name, _) if name == "HashSet" || name == "BTreeSet" => {
            match reply_type::arguments(ty).first() {
                Some(elem) => {
                    let elem = reply_shape(elem, private);
                    quote!(#private::Shape::Set(&#elem))
                }
                None => quote!(#private::Shape::Any),
            }
        }
        Reading::Named(name, _) if name == "HashMap" || name == "BTreeMap" => {
            match reply_type::arguments(ty)[..] {
                [key, value, ..] => {
                    let key = reply_shape(key, private);
                    let value = reply_shape(value, private);
                    quote!(#private::Shape::Map(&#key, &#value))
                }
                _ => quote!(#private::Shape::Any),
            }
        }
        Reading::Named(name, None) if name == "Value" => quote!(#private::Shape::Raw),
        Reading::Named(name, None) if reply_type::INTEGERS.contains(&name.as_str()) => {
            let int = Ident::new(&name, Span::call_site());
            // `MAX as u128`: every integer type's maximum fits, `u128::MAX` included.
            quote!(#private::Shape::int(
                ::core::primitive::#int::MIN as i128,
                ::core::primitive::#int::MAX as u128,
            ))
        }
        _ => quote!(#private::Shape::Any),
    }
}
