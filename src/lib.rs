//! redis-script
extern crate self as redis_script;

pub use redis_script_macros::redis_script;
pub use redis_script_runtime::{
    Arity, Error, ErrorKind, Invocation, NoScriptFallback, Script, ScriptPipeline,
};

/// The redis-rs version this crate is built on, re-exported.
pub use redis;

#[doc(hidden)]
pub mod __private {
    pub use redis_script_runtime::__private::*;
}
