//! The `redis-lua` tool and the checks of a [`Request`] agree: every Lua file of the
//! repository (`scripts/`, `tests/lua/`, the UI cases' `tests/ui/`,
//! `examples/lua/`, the tool's corpus `redis-lua/tests/corpus/`) gets the same errors, word for word and at the same
//! line, from `#[redis_script]`/`#[redis_function]` (run here as the
//! compiler runs them, errors read from their `compile_error!`s) and from
//! `redis_script_analyzer::lint::check_file`, under the same declaration:
//! a headed script's header, which the macro binds as `scripts!` does; for
//! a script without one, each of 0, 1 and 2 keys with a variable ARGV tail;
//! for a library, each function it registers. Notes are left out of the
//! comparison: where they say how to declare more keys or allow a finding,
//! each words them for its own users (a Rust attribute, a Lua header).

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use redis_script_analyzer::lint::{self, FileOptions};
use redis_script_analyzer::{Severity, header, library};

use crate::expand;
use crate::input::header::binding as header_binding;
use crate::input::manifest::Manifest;
use crate::input::request::Request;
use crate::input::script_file::ScriptFile;

/// The folders whose Lua files are compared, relative to this crate.
const FOLDERS: &[&str] = &[
    "../scripts",
    "../tests/lua",
    "../tests/ui",
    "../examples/lua",
    // The tool's own corpus: its bad scripts are mistakes for the macro too.
    "../redis-lua/tests/corpus",
];

fn lua_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder of the repository")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            lua_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "lua") {
            files.push(path);
        }
    }
}

/// The messages of the `compile_error!`s in `tokens`.
fn compile_errors(tokens: TokenStream, messages: &mut Vec<String>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) if ident == "compile_error" => {
                if let Some(TokenTree::Group(group)) = trees.get(index + 2) {
                    let literal: syn::LitStr =
                        syn::parse2(group.stream()).expect("a compile_error! message");
                    messages.push(literal.value());
                }
            }
            TokenTree::Group(group) => compile_errors(group.stream(), messages),
            _ => {}
        }
    }
}

/// `text` without its notes, and with the one word that differs: the
/// macro's "binding" is the tool's "script".
fn comparable(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("= note:"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("the binding declares", "the script declares")
}

/// The parameters of a declaration with `keys` keys and a variable tail.
fn keyed_params(keys: usize) -> TokenStream {
    let keys = (1..=keys).map(|index| format_ident!("k{index}"));
    quote!(#(#keys: &str,)* #[variadic] rest: &[&str])
}

/// The macro's errors on a binding `attribute(args) item`.
fn macro_errors(function: bool, args: TokenStream, item: TokenStream) -> Vec<String> {
    let expanded = if function {
        expand::redis_function(args, item)
    } else {
        expand::redis_script(args, item)
    };
    errors_of(expanded)
}

/// The comparable messages of the `compile_error!`s of an expansion.
fn errors_of(expanded: TokenStream) -> Vec<String> {
    let mut messages = Vec::new();
    compile_errors(expanded, &mut messages);
    let mut messages: Vec<String> = messages.iter().map(|m| comparable(m)).collect();
    messages.sort();
    messages.dedup();
    messages
}

/// The tool's errors on `relative` with `keys` keys (a header decides).
fn tool_errors(relative: &str, path: &Path, keys: Option<usize>) -> Vec<String> {
    let Ok(source) = std::fs::read_to_string(path) else {
        // Not UTF-8: the macro refuses it (the runtime holds a script as
        // text), whatever the tool finds in it.
        return vec!["unreadable".to_owned()];
    };
    let options = FileOptions::default().keys(keys).keys_from_name(false);
    let report = lint::check_file(relative, path, source, &mut |p| std::fs::read(p), &options);
    let mut messages: Vec<String> = report
        .findings
        .iter()
        .filter(|finding| finding.severity == Severity::Error)
        .map(|finding| comparable(&report.rendered(finding)))
        .collect();
    messages.sort();
    messages.dedup();
    messages
}

#[test]
fn the_tool_and_the_macro_agree_on_every_script_of_the_repository() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
    let mut files = Vec::new();
    for folder in FOLDERS {
        lua_files(&manifest.join(folder), &mut files);
    }
    assert!(files.len() > 100, "{} files", files.len());
    let mut compared = 0;
    let mut failing = 0;
    for path in &files {
        let relative = path
            .strip_prefix(manifest)
            .expect("under the crate")
            .display()
            .to_string();
        let source = std::fs::read_to_string(path).ok();
        let own = source.as_deref().unwrap_or("");
        let lit = syn::LitStr::new(&relative, Span::call_site());
        let mut cases: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        if source.is_some() && lint::is_library(own) {
            let registered = library::analyze_library(own, Default::default()).registered;
            let names: Vec<String> = if registered.is_empty() {
                vec!["not_registered".to_owned()]
            } else {
                registered.into_iter().map(|r| r.name).collect()
            };
            for keys in 0..=2 {
                let mut from_macro = Vec::new();
                for name in &names {
                    let params = keyed_params(keys);
                    let item = quote!(fn f(#params) -> redis::Value;);
                    let args = quote!(library = #lit, name = #name, keys = #keys);
                    from_macro.extend(
                        macro_errors(true, args, item)
                            .into_iter()
                            .filter(|m| !m.contains("registers no function")),
                    );
                }
                from_macro.sort();
                from_macro.dedup();
                cases.push((from_macro, tool_errors(&relative, path, Some(keys))));
            }
        } else if let Ok(Some(header)) = header::parse_optional(own) {
            // Bound as `scripts!` binds it: the binding built from the
            // header, no tokens in between.
            let name = format_ident!("headed");
            let binding =
                header_binding(&name, &header, &quote!(::redis_script), Span::call_site());
            let manifest = Manifest::read(Span::call_site());
            let expanded = match ScriptFile::read(&lit) {
                Ok(script) => expand::request_tokens(Request::from_header(
                    binding,
                    lit.clone(),
                    script,
                    header,
                    &manifest,
                )),
                Err(error) => error.to_compile_error(),
            };
            cases.push((errors_of(expanded), tool_errors(&relative, path, None)));
        } else {
            for keys in 0..=2 {
                let params = keyed_params(keys);
                let item = quote!(fn f(#params) -> redis::Value;);
                let args = quote!(file = #lit, keys = #keys);
                let from_macro = macro_errors(false, args, item);
                let from_tool = tool_errors(&relative, path, Some(keys));
                cases.push((from_macro, from_tool));
            }
        }
        for (from_macro, from_tool) in cases {
            compared += 1;
            if from_tool == ["unreadable"] {
                assert!(
                    !from_macro.is_empty(),
                    "{relative}: the macro reads what the tool cannot"
                );
                continue;
            }
            failing += usize::from(!from_tool.is_empty());
            // The macro shows the first 20 errors and counts the rest.
            let more = from_macro.iter().find_map(|m| {
                m.strip_prefix("... and ")?
                    .split(' ')
                    .next()?
                    .parse::<usize>()
                    .ok()
            });
            if let Some(more) = more {
                let shown: Vec<&String> = from_macro
                    .iter()
                    .filter(|m| !m.starts_with("... and "))
                    .collect();
                assert_eq!(shown.len() + more, from_tool.len(), "{relative}");
                assert!(shown.iter().all(|m| from_tool.contains(m)), "{relative}");
                continue;
            }
            assert_eq!(
                from_macro, from_tool,
                "{relative}: the macro (left) and the tool (right) disagree"
            );
        }
    }
    // The corpus has both kinds: the comparison is not of empty lists alone.
    assert!(
        compared > 300 && failing > 30,
        "{compared} cases, {failing} failing"
    );
}
