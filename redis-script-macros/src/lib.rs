//! The `#[redis_script]` attribute of [redis-script](https://docs.rs/redis-script).
//!
//! Use it through the `redis-script` facade crate, which documents it (the
//! items here have no docs of their own, so that the facade's re-exports
//! show one copy on docs.rs); the
//! generated code reaches the runtime through `::redis_script::__private`, and
//! its signature names the public `::redis_script::Invocation`.
//!
//! The pipeline reads top to bottom, one folder a step: `input` gathers
//! every route's binding into one `Request` (the attribute's arguments and
//! declaration, or a `scripts!` folder's script and the binding its header
//! declares; the Lua file read once, its header parsed once, the crate's
//! target servers read once per macro invocation), `check` checks it
//! (`valid` the declaration, `signature` the header against it, `script`
//! the Lua analysis, with the crate `redis-script-analyzer`), `expand`
//! generates.

#![cfg_attr(docsrs, feature(doc_cfg))]

mod check;
mod errors;
mod expand;
mod input;
mod reply_type;
mod test_fn;

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
    expand::folder::scripts(input.into()).into()
}

// Turns a function of a Redis Functions library on disk into a typed Rust
// function; see the `redis-script` crate for the guide.
#[proc_macro_attribute]
pub fn redis_function(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::redis_function(args.into(), item.into()).into()
}

// Lets the bindings of an `impl` block stand there as associated
// functions; see the `redis-script` crate for the guide.
#[proc_macro_attribute]
pub fn bindings(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::impl_block::bindings(args.into(), item.into()).into()
}

// Runs a test function on real throwaway servers (the crate
// `redis-script-test`); see the `redis-script` crate for the guide.
#[proc_macro_attribute]
pub fn test(args: TokenStream, item: TokenStream) -> TokenStream {
    test_fn::test(args.into(), item.into()).into()
}
