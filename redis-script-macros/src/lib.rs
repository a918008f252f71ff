//! The `#[redis_script]` attribute of [redis-script](https://docs.rs/redis-script).
//!
//! Use it through the `redis-script` facade crate, which documents it (the
//! items here have no docs of their own, so that the facade's re-exports
//! show one copy on docs.rs); the
//! generated code reaches the runtime through `::redis_script::__private`, and
//! its signature names the public `::redis_script::Invocation`.
//!
//! The pipeline reads top to bottom: `attr` and `ast` parse, `valid` checks,
//! `script_file` reads the Lua file and `manifest` the crate's target
//! servers, `script_check` runs the Lua analyzer (the crate
//! `redis-script-analyzer`) on it, `expand` generates.

#![cfg_attr(docsrs, feature(doc_cfg))]

mod ast;
mod attr;
mod check;
mod errors;
mod expand;
mod folder;
mod input;
mod manifest;
mod reply_type;
mod script_check;
mod script_file;
mod signature;
mod valid;

use proc_macro::TokenStream;

// Turns a Lua script on disk into a typed Rust function; see the
// `redis-script` crate for the guide.
#[proc_macro_attribute]
pub fn redis_script(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::redis_script(args.into(), item.into()).into()
}

// Binds every script of a folder by its header; see the `redis-script`
// crate for the guide.
#[proc_macro]
pub fn scripts(input: TokenStream) -> TokenStream {
    folder::scripts(input.into()).into()
}

// Turns a function of a Redis Functions library on disk into a typed Rust
// function; see the `redis-script` crate for the guide.
#[proc_macro_attribute]
pub fn redis_function(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::redis_function(args.into(), item.into()).into()
}
