//! The ground floor: what `#[redis_script]` and `#[redis_function]` embed
//! in the program, as `static`s built in `const` context.
//!
//! A binding's [`Script`](script::Script) (its source, SHA1, names, arity
//! and flags), the [`Library`](library::Library) of a function, the
//! [`Shape`](shape::Shape) of its declared reply, its call
//! [`counters`](counters) (which count failures by
//! [`ErrorClass`](error_class::ErrorClass)), and the [`linked`] slice of
//! every binding in the binary. Nothing here sends a command or builds an
//! error: the floors above (`error`, `reply`, `observe`, `deploy`, `call`)
//! add that, some of it as further `impl Script` blocks, so that imports
//! only point down.

pub(crate) mod counters;
pub(crate) mod error_class;
pub mod impl_path;
pub(crate) mod library;
pub(crate) mod linked;
pub(crate) mod script;
pub(crate) mod shape;
