//! The static description of one Lua script, as the macro embeds it.
//!
//! Only what the description is and the commands it is called with: how a
//! script is loaded lives with the deployment (`deploy::load`), and how it
//! is called with the calls (`call::invocation`), so that this floor names
//! no error, reply or connection.

use super::counters::{Counters, ScriptStats};
use super::library::Library;
use super::shape::Shape;

/// How many KEYS or ARGV values a script takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arity {
    /// Exactly this many values.
    Exactly(usize),
    /// At least this many: a `#[variadic]` parameter (the last key
    /// parameter, or the last parameter) appends any number of further
    /// values.
    AtLeast(usize),
}

impl Arity {
    /// `fixed` values, and any number more if `variadic`.
    const fn of(fixed: usize, variadic: bool) -> Arity {
        if variadic {
            Arity::AtLeast(fixed)
        } else {
            Arity::Exactly(fixed)
        }
    }

    /// The least number of values: the fixed ones.
    pub const fn min(self) -> usize {
        match self {
            Arity::Exactly(n) | Arity::AtLeast(n) => n,
        }
    }

    /// Whether `count` values satisfy this arity.
    pub const fn accepts(self, count: usize) -> bool {
        match self {
            Arity::Exactly(n) => count == n,
            Arity::AtLeast(n) => count >= n,
        }
    }
}

/// Everything known about a script at compile time.
///
/// Each `#[redis_script]` binding `foo` has one of these as `foo::SCRIPT`, a
/// `static` reachable without building a call, for inspection and preloading:
///
/// ```ignore
/// let script: &'static Script = &acquire_lock::SCRIPT;
/// assert_eq!(script.key_count(), 1);
/// script.load(&mut con)?; // SCRIPT LOAD, e.g. when warming a new server
/// ```
///
/// A `#[redis_function]` binding has one too, with its library
/// ([`library`](Self::library)) and function ([`function_name`](Self::function_name));
/// [`registry::scripts`](crate::registry::scripts) lists both kinds.
///
/// The SHA1 is computed by the macro from the exact bytes of [`source`](Self::source),
/// which are the bytes sent by EVAL and SCRIPT LOAD: the runtime never hashes.
#[derive(Debug)]
pub struct Script {
    name: &'static str,
    binding_path: &'static str,
    file: &'static str,
    source: &'static str,
    sha1: &'static str,
    key_names: &'static [&'static str],
    arg_names: &'static [&'static str],
    key_arity: Arity,
    arg_arity: Arity,
    reply_type: &'static str,
    reply_shape: &'static Shape,
    flags: &'static [&'static str],
    read_only: bool,
    /// For a `#[redis_function]` binding: its library and function name.
    function: Option<(&'static Library, &'static str)>,
    counters: Counters,
    /// The `script` label of this binding's metrics, kept here so that a
    /// call's metric keys borrow it instead of allocating a label list.
    #[cfg(feature = "metrics")]
    metric_label: metrics::Label,
}

/// The parts of a [`Script`], named, so the macro's output reads clearly and
/// later fields (flags, say) can be added without reordering arguments.
#[doc(hidden)]
pub struct ScriptParts {
    pub name: &'static str,
    /// Where the binding is declared, ending in its name (see [`Script::binding_path`]).
    pub binding_path: &'static str,
    pub file: &'static str,
    pub source: &'static str,
    pub sha1: &'static str,
    pub key_names: &'static [&'static str],
    pub arg_names: &'static [&'static str],
    /// Whether the last key parameter is `#[variadic]`: any number of
    /// further KEYS after `key_names`.
    pub variadic_keys: bool,
    /// Whether the last parameter is a `#[variadic]` ARGV tail.
    pub variadic: bool,
    pub reply_type: &'static str,
    /// Where integers sit in the reply type, and their ranges.
    pub reply_shape: &'static Shape,
    /// The shebang's flags, e.g. `["no-writes"]` for `#!lua flags=no-writes`.
    pub flags: &'static [&'static str],
    /// Whether `flags` holds `no-writes`.
    pub read_only: bool,
    /// For a function of a library: the library and the function's name;
    /// then `source` is the library's code and `sha1` is empty.
    pub function: Option<(&'static Library, &'static str)>,
}

impl Script {
    /// Builds the description; called only by code that `#[redis_script]` generates.
    #[doc(hidden)]
    pub const fn from_parts(parts: ScriptParts) -> Script {
        Script {
            name: parts.name,
            binding_path: parts.binding_path,
            file: parts.file,
            source: parts.source,
            sha1: parts.sha1,
            key_names: parts.key_names,
            arg_names: parts.arg_names,
            key_arity: Arity::of(parts.key_names.len(), parts.variadic_keys),
            arg_arity: Arity::of(parts.arg_names.len(), parts.variadic),
            reply_type: parts.reply_type,
            reply_shape: parts.reply_shape,
            flags: parts.flags,
            read_only: parts.read_only,
            function: parts.function,
            counters: Counters::new(),
            #[cfg(feature = "metrics")]
            metric_label: metrics::Label::from_static_parts("script", parts.name),
        }
    }

    /// The name of the Rust binding, used in every error about this script.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Where the binding is declared, ending in its name:
    /// `my_app::jobs::claim` for a binding in the module `my_app::jobs`,
    /// `my_app::jobs::Jobs::claim` for one in a `#[bindings] impl Jobs`
    /// there. Used e.g. to pick a crate's or a module's scripts out of
    /// [`registry::scripts`](crate::registry::scripts).
    pub const fn binding_path(&self) -> &'static str {
        self.binding_path
    }

    /// The Lua file as written in the attribute, relative to the crate's manifest directory.
    pub const fn file(&self) -> &'static str {
        self.file
    }

    /// The Lua source, byte for byte as sent to the server (composed, for a
    /// script with `--- @include` lines); for a `#[redis_function]` binding,
    /// its library's code.
    pub const fn source(&self) -> &'static str {
        self.source
    }

    /// The lowercase hex SHA1 of [`source`](Self::source), as EVALSHA and
    /// SCRIPT LOAD use it; empty for a `#[redis_function]` binding, which
    /// FCALL calls by name.
    pub const fn sha1(&self) -> &'static str {
        self.sha1
    }

    /// How many fixed KEYS the script takes: the length of
    /// [`key_names`](Self::key_names). With variadic keys (see
    /// [`key_arity`](Self::key_arity)) a call passes at least these, and
    /// its own count is the call's numkeys.
    pub const fn key_count(&self) -> usize {
        self.key_names.len()
    }

    /// The Rust parameter names that fill `KEYS[1..]`, in order; a
    /// `#[variadic]` key parameter is not listed (see
    /// [`key_arity`](Self::key_arity)).
    pub const fn key_names(&self) -> &'static [&'static str] {
        self.key_names
    }

    /// How many KEYS the script takes: exactly the fixed keys, or at least
    /// them when the last key parameter is `#[variadic]`, a list of keys
    /// whose length each call decides.
    pub const fn key_arity(&self) -> Arity {
        self.key_arity
    }

    /// The Rust parameter names that fill `ARGV[1..]`, in order; a variadic tail
    /// is not listed (see [`arg_arity`](Self::arg_arity)).
    pub const fn arg_names(&self) -> &'static [&'static str] {
        self.arg_names
    }

    /// How many ARGV values the script takes: exactly the fixed arguments,
    /// or at least them when the binding ends in a `#[variadic]` parameter.
    pub const fn arg_arity(&self) -> Arity {
        self.arg_arity
    }

    /// The Rust return type as declared on the binding, e.g. `Option<String>`.
    pub const fn reply_type(&self) -> &'static str {
        self.reply_type
    }

    pub(crate) const fn reply_shape(&self) -> &'static Shape {
        self.reply_shape
    }

    /// The flags of the script's `#!lua flags=...` shebang, as Redis knows them.
    pub const fn flags(&self) -> &'static [&'static str] {
        self.flags
    }

    /// Whether the script declares `flags=no-writes`: calls then use
    /// EVALSHA_RO / EVAL_RO, which replicas accept, and Redis refuses any
    /// write the script attempts.
    pub const fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// For a `#[redis_function]` binding, the library it calls a function
    /// of; `None` for a script.
    pub const fn library(&self) -> Option<&'static Library> {
        match self.function {
            Some((library, _)) => Some(library),
            None => None,
        }
    }

    /// For a `#[redis_function]` binding, the name of the function it calls.
    pub const fn function_name(&self) -> Option<&'static str> {
        match self.function {
            Some((_, name)) => Some(name),
            None => None,
        }
    }

    /// How often this binding was called, recovered from NOSCRIPT (or a
    /// missing library) and failed, by [`ErrorClass`](crate::ErrorClass),
    /// since the program started: counted on every call, with no feature
    /// needed. See [`observe`](crate::observe).
    ///
    /// ```ignore
    /// let before = acquire_lock::SCRIPT.stats();
    /// acquire_lock("lock:a", 10, &token).invoke(&mut con)?;
    /// assert_eq!(acquire_lock::SCRIPT.stats().since(&before).calls(), 1);
    /// ```
    pub fn stats(&self) -> ScriptStats {
        self.counters.snapshot()
    }

    pub(crate) fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The labels of this binding's metrics: `script = <name>`.
    #[cfg(feature = "metrics")]
    pub(crate) fn metric_labels(&'static self) -> &'static [metrics::Label] {
        std::slice::from_ref(&self.metric_label)
    }

    /// The command of a call: `EVALSHA` (`EVALSHA_RO` for a read-only
    /// script), or `FCALL` (`FCALL_RO`) for a function.
    pub(crate) fn call_command(&self) -> &'static str {
        match (self.function.is_some(), self.read_only) {
            (true, true) => "FCALL_RO",
            (true, false) => "FCALL",
            (false, true) => "EVALSHA_RO",
            (false, false) => "EVALSHA",
        }
    }

    /// The leading arguments of a call: `EVALSHA sha1` (`EVALSHA_RO` for a
    /// read-only script), or `FCALL name` (`FCALL_RO`) for a function.
    pub(crate) fn call_head(&self) -> [&'static [u8]; 2] {
        let called = match self.function {
            Some((_, name)) => name,
            None => self.sha1,
        };
        [self.call_command().as_bytes(), called.as_bytes()]
    }

    /// The command of a call with the full source: `EVAL` (`EVAL_RO`); a
    /// function has no such form, and is called as always.
    pub(crate) fn eval_command(&self) -> &'static str {
        match (self.function.is_some(), self.read_only) {
            (true, _) => self.call_command(),
            (false, true) => "EVAL_RO",
            (false, false) => "EVAL",
        }
    }

    /// The leading arguments of a call with the full source: `EVAL source`
    /// (`EVAL_RO`), or for a function its [`call_head`](Self::call_head).
    pub(crate) fn eval_head(&self) -> [&'static [u8]; 2] {
        match self.function {
            Some(_) => self.call_head(),
            None => [self.eval_command().as_bytes(), self.source.as_bytes()],
        }
    }
}
