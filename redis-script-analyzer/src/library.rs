//! Redis Functions libraries (`FUNCTION LOAD`), as every target server loads
//! and runs them (the same way; checked on redis-server 7.0.15 and 8.2.3 and
//! valkey-server 8.1.8 and 9.1.2): the `#!lua name=<library>` line, the functions the
//! library registers (`redis.register_function('name', callback)` or the
//! table form with `function_name`, `callback`, `flags`, `description`),
//! what its top-level code may do while it loads, and the checks of one
//! registered function's callback against a binding ([`analyze_function`]).
//!
//! While a library loads, its only global is `redis`, and of it only
//! `register_function`, `log`, the `LOG_*` levels and `REDIS_VERSION(_NUM)`
//! exist: reading anything else at top level (`redis.call`, `string`,
//! `tostring`, `KEYS`) fails the load with "Script attempted to access
//! nonexistent global variable". Functions run with the script sandbox
//! minus `KEYS` and `ARGV`: a callback gets the keys and the arguments as
//! its first and second parameters.

use std::collections::HashSet;

use crate::declared::Declared;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::rules::library::is_valid_name;
use crate::rules::{self, Callback};
use crate::semantic::{Environment, Model};
use crate::suggest::suggest;
use crate::syntax::parser;
use crate::syntax::tree::{Chunk, Span};

pub use crate::rules::library::Registered;

/// The findings on a library and one of its functions.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FunctionAnalysis {
    /// The library's name from `#!lua name=...` (empty if it has none).
    pub library: String,
    /// Every function the library registers that the text settles.
    pub registered: Vec<Registered>,
    /// The function analysed, if the library registers it.
    pub function: Option<Registered>,
    /// Errors and warnings, in the order the checks ran.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the library `source` and checks the function `function` in it
/// against `declared` (whose `read_only` is taken from the function's flags).
pub fn analyze_function<S: AsRef<[u8]> + ?Sized>(
    source: &S,
    function: &str,
    declared: Declared,
) -> FunctionAnalysis {
    analyze(source.as_ref(), Some(function), declared)
}

/// Reads the library `source` and checks every function it registers
/// against `declared`, as [`analyze_function`] checks one; each finding once.
/// [`FunctionAnalysis::function`] is `None`.
///
/// The library is read once: one parse, one model, one reading of its
/// registrations, then each callback's checks on that model.
pub fn analyze_library<S: AsRef<[u8]> + ?Sized>(
    source: &S,
    declared: Declared,
) -> FunctionAnalysis {
    analyze(source.as_ref(), None, declared)
}

/// [`analyze_function`] with a `function`, [`analyze_library`] without.
fn analyze(source: &[u8], function: Option<&str>, mut declared: Declared) -> FunctionAnalysis {
    let (inline, inline_errors) = crate::inline_allow::inline_allows(source, declared.checker);
    declared.allowed = declared.allowed.union(inline);
    let mut analysis = FunctionAnalysis {
        library: String::new(),
        registered: Vec::new(),
        function: None,
        diagnostics: inline_errors,
    };
    match library_name(&crate::text::same_offsets(source)) {
        Ok(name) => analysis.library = name,
        Err(diagnostic) => {
            analysis.diagnostics.push(*diagnostic);
            return analysis;
        }
    }
    let chunk = match parser::parse(source) {
        Ok(chunk) => chunk,
        Err(error) => {
            analysis
                .diagnostics
                .push(crate::rules::syntax::finding(source, error));
            return analysis;
        }
    };
    let mut model = Model::build(&chunk, Environment::Library);
    let loading = rules::library::load_time(&model, &chunk, declared.servers);
    analysis.diagnostics.extend(loading.diagnostics);
    analysis.registered = loading.registered;
    let checked: Vec<&Registered> = match function {
        Some(function) => {
            let target = analysis
                .registered
                .iter()
                .find(|registered| registered.name == function);
            if target.is_none() && !loading.uncertain {
                analysis
                    .diagnostics
                    .push(not_registered(&analysis, function, &chunk));
            }
            analysis.function = target.cloned();
            target.into_iter().collect()
        }
        None => analysis.registered.iter().collect(),
    };
    let callbacks: Vec<Callback> = checked
        .into_iter()
        .filter_map(|registered| {
            Some(Callback {
                function: registered.callback?,
                declared: Declared {
                    read_only: registered.is_read_only(),
                    ..declared.clone()
                },
            })
        })
        .collect();
    model.set_callbacks(callbacks.iter().map(|callback| callback.function));
    declared.read_only = false;
    let found = rules::check_library(source, &model, &declared, &callbacks);
    // A function registered under two names, or a callback inside another,
    // is checked twice: each finding once, in the order found.
    let mut seen: HashSet<Diagnostic> = analysis.diagnostics.iter().cloned().collect();
    analysis.diagnostics.extend(
        found
            .into_iter()
            .filter(|diagnostic| seen.insert(diagnostic.clone())),
    );
    analysis
}

/// The name in `#!lua name=<library>`, read as FUNCTION LOAD reads it.
fn library_name(source: &str) -> Result<String, Box<Diagnostic>> {
    let line_end = source.find('\n');
    let line = &source[..line_end.unwrap_or(source.len())];
    let span = Span::new(0, line.len());
    let error = |message: String, note: &str| {
        Box::new(
            Diagnostic::error(Rule::Library, Target::File, span, message)
                .with_note(note.to_owned()),
        )
    };
    let example = "start the library with a line such as `#!lua name=mylib`";
    let Some(options) = line.strip_prefix("#!lua") else {
        return Err(error(
            "a Redis Functions library must start with `#!lua name=<library>`: \
             FUNCTION LOAD refuses it (\"Missing library metadata\")"
                .to_owned(),
            example,
        ));
    };
    if line_end.is_none() {
        return Err(error(
            "the `#!lua` line has no line break after it: FUNCTION LOAD refuses it \
             (\"Invalid library metadata\")"
                .to_owned(),
            "put the library's code on the lines after it",
        ));
    }
    let mut name = None;
    for part in options.split_whitespace() {
        match part.strip_prefix("name=") {
            Some(value) => name = Some(value),
            None => {
                return Err(error(
                    format!(
                        "FUNCTION LOAD refuses `{part}` in the `#!lua` line (\"Invalid metadata value given\")"
                    ),
                    "a library's first line takes only `name=<library>`; function flags go in \
                     `redis.register_function{function_name=..., callback=..., flags={...}}`",
                ));
            }
        }
    }
    let Some(name) = name else {
        return Err(error(
            "the `#!lua` line names no library: FUNCTION LOAD refuses it (\"Library name was not given\")".to_owned(),
            example,
        ));
    };
    if !is_valid_name(name) {
        return Err(error(
            format!("`{name}` is not a library name FUNCTION LOAD accepts"),
            "library names can only contain letters, digits and underscores",
        ));
    }
    Ok(name.to_owned())
}

fn not_registered(analysis: &FunctionAnalysis, function: &str, chunk: &Chunk) -> Diagnostic {
    let names: Vec<&str> = analysis
        .registered
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    let note = match suggest(function, names.iter().copied()) {
        Some(name) => format!("did you mean `{name}`?"),
        None if names.is_empty() => {
            "register it: `redis.register_function('name', function(keys, args) ... end)`"
                .to_owned()
        }
        None => format!("the library registers: {}", names.join(", ")),
    };
    let span = analysis
        .registered
        .last()
        .map_or(chunk.block.span, |registered| registered.span);
    Diagnostic::error(
        Rule::Library,
        Target::Params,
        span,
        format!(
            "the library `{}` registers no function `{function}`, so FCALL fails with \"Function not found\"",
            analysis.library
        ),
    )
    .with_note(note)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reply_type::ReplyKind;
    use crate::rule::Severity;

    const ONE_KEY_ONE_ARG: Declared = Declared {
        keys: 1,
        args: 1,
        variadic: false,
        variadic_keys: false,
        reply: ReplyKind::NonNull,
        reply_type: crate::reply_type::RustType::Other,
        read_only: false,
        allowed: crate::diagnostic::Allowed::NONE,
        servers: crate::servers::Servers::ALL,
        checker: crate::rule::Checker::Attribute,
        cluster: false,
    };

    fn errors(source: &str, function: &str) -> Vec<String> {
        analyze_function(source, function, ONE_KEY_ONE_ARG)
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message)
            .collect()
    }

    const LIBRARY: &str = "#!lua name=shop\n\
        local function stock(keys, args)\n\
            return redis.call('HINCRBY', keys[1], args[1], 1)\n\
        end\n\
        redis.register_function('add_stock', stock)\n\
        redis.register_function{function_name = 'count', callback = function(keys, args)\n\
            return redis.call('HGET', keys[1], args[1]) or 0\n\
        end, flags = {'no-writes'}, description = 'reads'}\n";

    #[test]
    fn both_registration_forms_are_read_with_their_flags() {
        let analysis = analyze_function(LIBRARY, "count", ONE_KEY_ONE_ARG);
        assert_eq!(analysis.library, "shop");
        let names: Vec<&str> = analysis
            .registered
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, ["add_stock", "count"]);
        assert!(analysis.function.unwrap().is_read_only());
        assert!(
            analysis.diagnostics.is_empty(),
            "{:?}",
            analysis.diagnostics
        );
        assert!(errors(LIBRARY, "add_stock").is_empty());
    }

    #[test]
    fn the_callbacks_parameters_are_keys_and_arguments() {
        let library = LIBRARY.replace("keys[1], args[1], 1", "keys[2], args[1], 1");
        let found = errors(&library, "add_stock");
        assert!(found.iter().any(|e| e.contains("KEYS[2]")), "{found:?}");
        // The other function is not the one bound: its reads are its own.
        assert!(errors(&library, "count").is_empty());
        let found = errors(
            &LIBRARY.replace(
                "return redis.call('HINCRBY', keys[1]",
                "return redis.call('HINCRBY', KEYS[1]",
            ),
            "add_stock",
        );
        assert!(
            found
                .iter()
                .any(|e| e.contains("not a global in a Redis Functions library")),
            "{found:?}"
        );
    }

    #[test]
    fn a_no_writes_function_may_not_write_and_nil_needs_an_option() {
        let library = LIBRARY.replace(
            "redis.call('HGET', keys[1], args[1]) or 0",
            "redis.call('HSET', keys[1], args[1], 1)",
        );
        let found = errors(&library, "count");
        assert!(
            found.iter().any(|e| e.contains("`hset` writes")),
            "{found:?}"
        );
        let library = LIBRARY.replace(" or 0", "");
        let found = errors(&library, "count");
        assert!(
            found.iter().any(|e| e.contains("cannot hold nil")),
            "{found:?}"
        );
    }

    #[test]
    fn load_time_code_may_only_register_and_log() {
        let library = "#!lua name=l\nredis.call('SET', 'x', 1)\nlocal s = string.format('%d', 1)\n\
                       redis.log(redis.LOG_NOTICE, 'loading')\n\
                       redis.register_function('f', function(keys, args) return string.len(args[1]) end)\n";
        let found = errors(library, "f");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("`redis.call` does not exist while a library loads"));
        assert!(found[1].contains("`string` does not exist"));
    }

    #[test]
    fn valkeys_server_registers_and_tells_its_version_while_the_library_loads() {
        let library = "#!lua name=l\n\
                       server.log(server.LOG_NOTICE, server.VALKEY_VERSION)\n\
                       server.register_function('f', function(keys, args) return server.call('SET', keys[1], args[1]) end)\n";
        let on = |servers| {
            analyze_function(library, "f", ONE_KEY_ONE_ARG.servers(servers))
                .diagnostics
                .into_iter()
                .filter(|d| {
                    d.rule == crate::rule::Rule::Library
                        || d.rule == crate::rule::Rule::UnknownMember
                })
                .map(|d| d.message)
                .collect::<Vec<_>>()
        };
        assert_eq!(on(crate::servers::Servers::VALKEY), Vec::<String>::new());
        let on_redis = on(crate::servers::Servers::ALL);
        assert!(
            on_redis
                .iter()
                .any(|m| m.contains("`server` does not exist")),
            "{on_redis:?}"
        );
        let calls = "#!lua name=l\nserver.call('SET', 'x', 1)\n\
                     server.register_function('f', function(keys, args) return 1 end)\n";
        let found: Vec<String> = analyze_function(
            calls,
            "f",
            ONE_KEY_ONE_ARG.servers(crate::servers::Servers::VALKEY),
        )
        .diagnostics
        .into_iter()
        .map(|d| d.message)
        .collect();
        assert!(
            found[0].contains("`server.call` does not exist while a library loads"),
            "{found:?}"
        );
    }

    #[test]
    fn an_unregistered_function_is_named_with_a_suggestion() {
        let found = errors(LIBRARY, "add_stok");
        assert!(
            found
                .iter()
                .any(|e| e.contains("registers no function `add_stok`")),
            "{found:?}"
        );
        let analysis = analyze_function(LIBRARY, "add_stok", ONE_KEY_ONE_ARG);
        assert_eq!(
            analysis.diagnostics[0].note.as_deref(),
            Some("did you mean `add_stock`?")
        );
    }

    #[test]
    fn a_library_of_many_functions_gives_each_finding_once() {
        let mut library = String::from("#!lua name=many\n");
        for n in 0..200 {
            // Each reads a key past the one declared; every one reads the
            // same misspelt global.
            library.push_str(&format!(
                "redis.register_function('f{n}', function(keys, args) \
                 return redis.call('GET', keys[{}]) .. tostrin(args[1]) end)\n",
                n + 2
            ));
        }
        let analysis = analyze_library(&library, ONE_KEY_ONE_ARG);
        assert_eq!(analysis.registered.len(), 200);
        let messages: Vec<&str> = analysis
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        let unique: HashSet<&Diagnostic> = analysis.diagnostics.iter().collect();
        assert_eq!(unique.len(), analysis.diagnostics.len(), "{messages:?}");
        for n in 0..200 {
            let index = format!("KEYS[{}]", n + 2);
            let found = messages.iter().filter(|m| m.contains(&index)).count();
            assert_eq!(found, 1, "{index}: {messages:?}");
        }
        let global = messages.iter().filter(|m| m.contains("`tostrin`")).count();
        assert_eq!(global, 1, "{messages:?}");
        // As analyze_function finds them, one function at a time.
        let one = analyze_function(&library, "f7", ONE_KEY_ONE_ARG);
        assert!(
            one.diagnostics
                .iter()
                .all(|d| analysis.diagnostics.contains(d)),
            "{:?}",
            one.diagnostics
        );
    }

    #[test]
    fn registrations_and_flags_are_read_from_the_model() {
        let library = "#!lua name=l\n\
            local name = 'by_local'\n\
            local function shared(keys, args) return redis.call('SET', keys[1], args[1]) end\n\
            redis.register_function(name, shared)\n\
            redis.register_function{function_name = 'ro', callback = shared, flags = {'no-writes', 'allow-stale'}}\n";
        let analysis = analyze_library(library, ONE_KEY_ONE_ARG);
        let read: Vec<(&str, &[String])> = analysis
            .registered
            .iter()
            .map(|r| (r.name.as_str(), &r.flags[..]))
            .collect();
        assert_eq!(
            read,
            [
                ("by_local", &[][..]),
                (
                    "ro",
                    &["no-writes".to_owned(), "allow-stale".to_owned()][..]
                )
            ]
        );
        // One callback under two names: checked as each, its write refused once.
        let writes: Vec<&Diagnostic> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("`set` writes"))
            .collect();
        assert_eq!(writes.len(), 1, "{:?}", analysis.diagnostics);
        assert!(errors(library, "by_local").is_empty());
        // Registered in a loop, a branch or a function, or under a computed
        // name: which functions exist is not settled, so none is missing.
        for unsettled in [
            "for i = 1, 2 do redis.register_function('f' .. i, function() return 1 end) end\n",
            "if true then redis.register_function('g', function() return 1 end) end\n",
            "local function setup() redis.register_function('g', function() return 1 end) end setup()\n",
            "redis.register_function{function_name = 'g', callback = function() return 1 end, flags = {string.lower('X')}}\n",
        ] {
            let library = format!("#!lua name=l\n{unsettled}");
            let found = errors(&library, "h");
            assert!(
                found.iter().all(|e| !e.contains("registers no function")),
                "{unsettled}: {found:?}"
            );
        }
        let found = errors(
            "#!lua name=l\nredis.register_function('g', function() return 1 end)\n",
            "h",
        );
        assert!(found[0].contains("registers no function `h`"), "{found:?}");
    }

    #[test]
    fn the_first_line_is_read_as_function_load_reads_it() {
        for (source, expected) in [
            ("return 1\n", "must start with `#!lua name=<library>`"),
            ("#!lua\nreturn 1\n", "names no library"),
            (
                "#!lua name=a flags=no-writes\n",
                "refuses `flags=no-writes`",
            ),
            ("#!lua name=my-lib\n", "not a library name"),
            ("#!lua name=a", "no line break"),
        ] {
            let found = errors(source, "f");
            assert!(found[0].contains(expected), "{source:?}: {found:?}");
        }
        let found = errors(
            "#!lua name=a\nredis.register_function{function_name='f', callback=function() return 1 end, flags={'bogus'}, extra=1}\n",
            "f",
        );
        assert_eq!(found.len(), 2, "{found:?}");
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use crate::rule::Severity;
    use crate::rules::test_support::ONE_KEY_TWO_ARGS;

    fn findings(source: &str, function: &str, declared: Declared) -> Vec<(Rule, Severity)> {
        analyze_function(source, function, declared)
            .diagnostics
            .into_iter()
            .map(|d| (d.rule, d.severity))
            .collect()
    }

    #[test]
    fn a_helper_outside_the_callbacks_has_its_keys_judged() {
        let source = "#!lua name=l\n\
            local function bump(key) return redis.call('INCR', 'stats:' .. key) end\n\
            redis.register_function('a', function(keys, args) bump(args[1]) \
            return redis.call('GET', keys[1]) end)";
        let declared = Declared::default().keys(1).args(1);
        assert_eq!(
            findings(source, "a", declared.clone()),
            [(Rule::UndeclaredKey, Severity::Warning)]
        );
        assert_eq!(
            findings(source, "a", declared.cluster(true)),
            [(Rule::UndeclaredKey, Severity::Error)]
        );
    }

    #[test]
    fn a_callback_that_replaces_its_keys_reads_them_at_no_fixed_index() {
        let source = "#!lua name=l\n\
            redis.register_function('a', function(keys, args) \
            keys = {keys[1], keys[1] .. ':a', keys[1] .. ':b'} \
            return redis.call('GET', keys[3]) end)";
        let found = findings(source, "a", Declared::default().keys(1));
        assert!(
            !found.iter().any(|(rule, _)| *rule == Rule::OutOfRange),
            "{found:?}"
        );
    }

    #[test]
    fn each_callback_counts_its_own_keys() {
        // `inner` is registered from inside `outer`'s body: its reads of
        // its own KEYS are not `outer`'s.
        let source = "#!lua name=l\n\
            local function outer(keys, args) \
            return function(k, a) return redis.call('GET', k[1]) end end\n\
            redis.register_function('outer', outer)\n\
            redis.register_function('inner', outer())";
        let found = findings(source, "outer", Declared::default().keys(1));
        assert!(
            found.contains(&(Rule::Unread, Severity::Warning)),
            "{found:?}"
        );
    }

    /// The messages of the errors on the function `function` of the
    /// library `source`, declared with one key and two arguments: what a
    /// rule judges in a callback.
    fn errors_of(source: &str, function: &str) -> Vec<String> {
        analyze_function(source, function, ONE_KEY_TWO_ARGS)
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_library_judges_its_callback_parameters() {
        let source = "#!lua name=lib\n\
                      redis.register_function('f', function(keys, args) \
                      return keys[1] .. keys[2] .. args[1] end)";
        let found = errors_of(source, "f");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`KEYS[2]` is outside"), "{found:?}");
    }

    #[test]
    fn in_a_library_only_the_callback_is_read_only() {
        let source = "#!lua name=lib\n\
                      local function helper(k) return redis.call('SET', k, 1) end\n\
                      redis.register_function{function_name = 'f', flags = {'no-writes'}, \
                      callback = function(keys) helper(keys[1]) \
                      return redis.call('DEL', keys[1]) end}\n\
                      redis.register_function('g', function(keys) return redis.call('DEL', keys[1]) end)";
        let found = errors_of(source, "f");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`del` writes"), "{found:?}");
        assert_eq!(errors_of(source, "g"), Vec::<String>::new());
    }

    #[test]
    fn keys_and_argv_are_no_globals_in_a_library() {
        let source = "#!lua name=lib\n\
                      local function helper() return KEYS[1] .. ARGV[1] .. KEYS[2] end\n\
                      redis.register_function('f', function(keys, args) return keys[1] end)";
        let found = errors_of(source, "f");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("`KEYS` is not a global in a Redis Functions library"));
        assert!(found[1].starts_with("`ARGV` is not a global"));
    }
}
