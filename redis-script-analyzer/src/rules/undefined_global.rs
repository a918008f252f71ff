//! `undefined_global`: reading a global the sandbox does not have (`keys`, `UNPACK`).
//!
//! A read of a global that some targeted server lacks fails there at run
//! time ("Script attempted to access nonexistent global variable"). Each
//! name is reported once, at its first use ([`sandbox_names::findings`]),
//! and not where only a local function that never runs reads it (a shared
//! helper whose free names the including script declares). In a Functions
//! library `KEYS` and `ARGV` are no globals: a function gets them as its
//! callback's parameters.

use super::sandbox_names::{self, Finding};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::fix::edit::{Edit, Fix};
use crate::sandbox::{self, KEYWORD_VALUES};
use crate::semantic::{Access, Environment};
use crate::servers::Servers;
use crate::suggest::{certain_respelling, did_you_mean};
use crate::syntax::tree::Name;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    for (index, finding) in sandbox_names::findings(context) {
        match finding {
            Finding::Undefined(name) => diagnostics.push(undefined(context, index, name)),
            Finding::TableInLibrary(name) => diagnostics.push(table_in_library(name)),
            _ => {}
        }
    }
}

/// The global `name`, read at the use `index`, which some target lacks.
fn undefined(context: &Context, index: usize, name: &Name) -> Diagnostic {
    let targets = context.declared.servers;
    let lacking =
        sandbox::first_lacking(&name.text, targets).unwrap_or(context.declared.first_target());
    let message = format!(
        "`{}` is not a global of the script sandbox of {} {}, so reading it fails at run time",
        name.text,
        lacking.product(),
        lacking.version()
    );
    let local = sandbox_names::suggest_local(context, index, &name.text);
    let global = match local {
        Some(_) => None,
        None => sandbox::suggest_global(&name.text, targets),
    };
    let note = match (local, global) {
        (Some(local), _) => format!("did you mean the local `{}`?", local.name),
        // `rcall`, `call`: the name of an alias of `redis.call` that the
        // script including this file declares.
        (None, global)
            if is_call_alias(&name.text)
                && !global.is_some_and(|g| certain_respelling(&name.text, g.name)) =>
        {
            format!(
                "`{0}` reads like an alias of `redis.call`: declare it, `local {0} = redis.call` \
                 (here, or in the script that includes this file)",
                name.text
            )
        }
        (None, Some(global)) => did_you_mean(global.name),
        (None, None) => sandbox::absent_note(&name.text).map_or_else(
            || format!("declare it first: `local {} = ...`", name.text),
            str::to_owned,
        ),
    };
    // A name some server has is no misspelling: the note says where it is.
    let misspelt = sandbox::servers_with(&name.text, Servers::ALL).is_empty();
    let library = context.model.environment == Environment::Library;
    let fix = match (local, global) {
        (Some(local), _) if local.unique && misspelt => rename(context, name, local.name, true),
        // `nil` or `true` for a name is no fix where the name is called or
        // indexed; nor `KEYS` in a library, where it is no global.
        (None, Some(global))
            if global.unique
                && misspelt
                && !KEYWORD_VALUES.contains(&global.name)
                && !(library && matches!(global.name, "KEYS" | "ARGV")) =>
        {
            rename(context, name, global.name, false)
        }
        _ => None,
    };
    let note = sandbox_names::with_other_servers(note, &name.text, context.declared.checker);
    Diagnostic::error(Rule::UndefinedGlobal, Target::File, name.span, message)
        .with_note(note)
        .with_fix(fix)
}

/// Every read of the global `name` renamed `right`: a local of that name
/// (`local`) or a global. The finding is the name's first read, and the
/// mistake is the name: each read is renamed, so that none is left behind.
/// Only where the name is only read (a write is another mistake, whose
/// note offers a choice), and at each read `right` means what it should:
/// that local in scope there, or for a global, no local of that name in
/// scope. Certain only for a slip that keeps errors as they were
/// ([`Fix::respelling`]): `rcall` (an alias a fragment's includer
/// declares) into `pcall` is a suggestion.
fn rename(context: &Context, name: &Name, right: &str, local: bool) -> Option<Fix> {
    let model = context.model;
    let scopes = model.local_scopes(right);
    let mut edits = Vec::new();
    for (index, used) in model.names.iter().enumerate() {
        if used.binding.is_some() || used.name.text != name.text {
            continue;
        }
        let read = matches!(used.access, Access::Read | Access::Index { .. });
        let in_scope = scopes.iter().any(|scope| scope.contains(&index));
        if !read || in_scope != local {
            return None;
        }
        edits.push(Edit::replace(used.name.span, right));
    }
    edits.sort_by_key(|edit| edit.span.start);
    edits.dedup_by_key(|edit| edit.span.start);
    let whose = if local { "the local " } else { "" };
    Some(Fix::respelling(
        format!("replace `{}` with {whose}`{right}`", name.text),
        &name.text,
        right,
        edits,
    ))
}

/// Whether `name` reads like an alias of `redis.call` (`rcall`, `call`,
/// `redisCall`): a name ending in `call` that no server has.
fn is_call_alias(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("call") && sandbox::servers_with(name, Servers::ALL).is_empty()
}

/// `KEYS` or `ARGV` in a library, where functions get them as parameters.
fn table_in_library(name: &Name) -> Diagnostic {
    let (position, example, what) = if name.text == "KEYS" {
        ("first", "keys[1]", "keys")
    } else {
        ("second", "args[1]", "arguments")
    };
    Diagnostic::error(
        Rule::UndefinedGlobal,
        Target::File,
        name.span,
        format!(
            "`{}` is not a global in a Redis Functions library, so reading it fails at run time",
            name.text
        ),
    )
    .with_note(format!(
        "a function gets its {what} as its callback's {position} parameter: \
         `function(keys, args) ... {example} ... end`"
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn globals_read_only_by_local_functions_that_never_run_are_not_reported() {
        // A shared helper whose free names the including script declares:
        // a script that never calls it never looks them up.
        let helpers = "local function log_debug(...) if debug_lua ~= true then return end end\n\
                       local log = function(message) log_debug(message) return changelog end\n";
        for script in [
            "return 1",
            // Named only by another helper that never runs.
            "local function unused() return log('x') end return 1",
            // Named only by itself.
            "local function again() return again() .. missing end return 1",
            // Assigned, which does not run it.
            "log = nil return 1",
        ] {
            assert_eq!(
                errors(&format!("{helpers}{script}"), ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
        // Called, directly or through a function that runs, they are read.
        for script in [
            "return log('x')",
            "local function run() return log('x') end return run()",
            "return pcall(function() return log('x') end)",
            "local t = {log} return 1",
        ] {
            let found = errors(&format!("{helpers}{script}"), ONE_KEY_TWO_ARGS);
            assert_eq!(found.len(), 2, "{script}: {found:?}");
            assert!(found[0].starts_with("`debug_lua`"), "{found:?}");
            assert!(found[1].starts_with("`changelog`"), "{found:?}");
        }
        // An anonymous function may run; and a dead function's other
        // mistakes are mistakes in any script.
        assert_eq!(
            errors("return pcall(function() return nope end)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        let found = errors(
            "local function f() return redis.call('GETT', KEYS[1]) end return 1",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`gett`"), "{found:?}");
    }

    #[test]
    fn a_name_used_many_times_is_one_finding() {
        let reads = vec!["nope"; 5000].join(" + ");
        let found = errors(&format!("return {reads}"), ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn a_local_is_suggested_only_once_declared() {
        let found = errors(
            "local count = 1 return cuont + 1",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let note = crate::rules::test_support::notes("local count = 1 return cuont + 1", ONE_KEY_TWO_ARGS);
        assert_eq!(note, ["did you mean the local `count`?"]);
        let note = crate::rules::test_support::notes("local x = cuont local count = 1 return x + count", ONE_KEY_TWO_ARGS);
        assert_eq!(note, ["declare it first: `local cuont = ...`"]);
    }

    fn fixed(source: &str) -> Vec<Option<String>> {
        crate::rules::test_support::fixed(source, ONE_KEY_TWO_ARGS, super::check)
    }

    #[test]
    fn a_misspelt_global_is_renamed_at_every_read() {
        assert_eq!(
            fixed("local n = tonumbr(ARGV[1]) return n + tonumbr(ARGV[2])"),
            [Some("local n = tonumber(ARGV[1]) return n + tonumber(ARGV[2])".to_owned())]
        );
        assert_eq!(
            fixed("return UNPACK(KEYS)"),
            [Some("return unpack(KEYS)".to_owned())]
        );
    }

    #[test]
    fn a_misspelt_local_is_renamed_where_the_local_is_in_scope() {
        assert_eq!(
            fixed("local count = 1 count = cuont + 1 return cuont"),
            [Some("local count = 1 count = count + 1 return count".to_owned())]
        );
        // Inside a function that sees it.
        assert_eq!(
            fixed("local total = 0 local function add(n) total = totl + n end add(1) return total"),
            [Some(
                "local total = 0 local function add(n) total = total + n end add(1) return total"
                    .to_owned()
            )]
        );
    }

    #[test]
    fn a_name_that_may_mean_another_is_renamed_only_when_asked() {
        use crate::fix::edit::Applicability;
        // `rcall` is the usual alias of `redis.call` (a fragment without
        // its includer's `local rcall = redis.call`): `pcall` would turn
        // the script's errors into a quiet `false`. `call` alike.
        for (source, title) in [
            ("local v = rcall('GET', KEYS[1]) return v", "replace `rcall` with `pcall`"),
            ("return call('GET', KEYS[1])", "replace `call` with `pcall`"),
            ("return tostrong(1)", "replace `tostrong` with `tostring`"),
        ] {
            let found = crate::rules::test_support::run_rule(source, &ONE_KEY_TWO_ARGS, super::check);
            let fix = found[0].fix.as_ref().expect("a suggestion");
            assert_eq!((fix.title.as_str(), fix.applicability), (title, Applicability::Suggested), "{source}");
        }
        let note = crate::rules::test_support::notes("return rcall('GET', KEYS[1])", ONE_KEY_TWO_ARGS);
        assert_eq!(
            note,
            ["`rcall` reads like an alias of `redis.call`: declare it, `local rcall = \
              redis.call` (here, or in the script that includes this file)"]
        );
        // A slip of `pcall` is one.
        assert_eq!(
            fixed("return pcalll(redis.call, 'GET', KEYS[1])"),
            [Some("return pcall(redis.call, 'GET', KEYS[1])".to_owned())]
        );
    }

    #[test]
    fn a_rename_that_could_mean_something_else_is_no_fix() {
        for source in [
            // The local's scope has closed where the name is read.
            "do local count = 1 end return cuont",
            // Read once in its scope, once out of it.
            "do local count = 1 if cuont then return 1 end end return cuont",
            // Written too: the note offers declaring it instead.
            "local count = 1 local x = cuont cuont = 2 return x",
            // Two candidates as close.
            "local bar, baz = 1, 2 return bat",
            // A keyword where a name may be called.
            "return nill",
            // A global some server has is no misspelling.
            "return server.call('GET', KEYS[1])",
            // A local of the suggested name hides the global somewhere.
            "local n = tonumbr(ARGV[1]) do local tonumber = 5 return tonumbr(n) end",
        ] {
            let fixes = fixed(source);
            assert!(
                !fixes.is_empty() && fixes.iter().all(Option::is_none),
                "{source}: {fixes:?}"
            );
        }
        // In a library, KEYS is no global either.
        let library = "#!lua name=lib\nlocal function f() return keys[1] end\n\
                       redis.register_function('f', function(k, a) return f() end)";
        let found = crate::library::analyze_library(library, ONE_KEY_TWO_ARGS).diagnostics;
        let keys = found
            .iter()
            .find(|d| d.rule == crate::rule::Rule::UndefinedGlobal)
            .expect("`keys` is undefined");
        assert_eq!(keys.fix, None);
    }
}
