//! Every binding linked into the program: a slice that the linker
//! assembles (a `linkme` distributed slice), to which each
//! `#[redis_script]` and `#[redis_function]` expansion adds its [`Script`].
//! A binding is listed exactly when its code is in the binary, whichever
//! crate declares it.
//!
//! On the embedded floor because the expansions write into it, and the
//! observation of a pipeline looks bindings up in it; the public face is
//! the `registry` module (`deploy::registry`), which loads them.

use super::script::Script;

/// The scripts of every `#[redis_script]` binding in the binary, in link
/// order; read it through [`scripts`].
#[doc(hidden)]
#[linkme::distributed_slice]
pub static SCRIPTS: [&'static Script];

/// Adds a binding's `SCRIPT` to [`SCRIPTS`]; what `#[redis_script]`
/// expansions call. A macro of this crate, so that the `linkme` attributes
/// name it through `$crate`, whatever path the expansion reached it by.
#[doc(hidden)]
#[macro_export]
macro_rules! __register_script {
    ($script:path) => {
        #[$crate::__private::linkme::distributed_slice($crate::__private::SCRIPTS)]
        #[linkme(crate = $crate::__private::linkme)]
        #[allow(deprecated)]
        static REGISTERED: &$crate::__private::Script = &$script;
    };
}

/// Every binding linked into this program, of every crate, ordered by
/// [`Script::binding_path`]: each `#[redis_script]` binding, and each
/// `#[redis_function]` binding, whose [`Script::library`] is `Some` (a
/// script's is `None`).
///
/// Two bindings of one file are two entries, with one SHA1 (or one
/// library); [`load_all`](crate::registry::load_all) and
/// [`load`](crate::registry::load) load such a script, or library, once.
///
/// ```ignore
/// #[redis_script(file = "scripts/echo.lua", keys = 1)]
/// fn echo(queue: &str, #[variadic] values: &[&str]) -> Vec<String>;
///
/// assert!(redis_script::registry::scripts().any(|script| std::ptr::eq(script, &echo::SCRIPT)));
/// let functions = redis_script::registry::scripts().filter(|script| script.library().is_some());
/// ```
pub fn scripts() -> impl Iterator<Item = &'static Script> {
    let mut scripts: Vec<&'static Script> = SCRIPTS.iter().copied().collect();
    scripts.sort_by_key(|script| script.binding_path());
    scripts.into_iter()
}
