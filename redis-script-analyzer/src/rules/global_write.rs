//! `global_write`: creating a global, or modifying a library the sandbox makes read-only.
//!
//! Redis makes the globals table read-only for scripts: assigning a name
//! with no local of that name, or `function name()`, fails at run time
//! ("Attempt to modify a readonly table"), and so does writing into a
//! library (`string.x = 1`, `function redis.f()`, `_G.x = 1`). A created
//! global is reported once, at its first use ([`sandbox_names::findings`]);
//! writing `KEYS[n]` or `ARGV[n]` is allowed.

use super::sandbox_names::{self, Finding};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::Rule;
use crate::syntax::tree::Name;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    for (index, finding) in sandbox_names::findings(context) {
        match finding {
            Finding::Assigned(name) => diagnostics.push(assigned(context, index, name)),
            Finding::FunctionStatement(name) => diagnostics.push(function_statement(name)),
            Finding::ModifiesLibrary(name) => diagnostics.push(modifies_library(name)),
            _ => {}
        }
    }
}

/// `name = ...` at the use `index`, with no local `name`.
fn assigned(context: &Context, index: usize, name: &Name) -> Diagnostic {
    let message = format!(
        "assigning `{0}` creates a global, and Redis forbids creating globals",
        name.text
    );
    let note = match sandbox_names::suggest_local(context, index, &name.text) {
        Some(local) => format!(
            "did you mean the local `{}`? Otherwise declare it: `local {}`",
            local.name, name.text
        ),
        None => format!(
            "declare it: `local {} = ...`; at run time Redis fails with \
             \"Attempt to modify a readonly table\"",
            name.text
        ),
    };
    Diagnostic::error(Rule::GlobalWrite, Target::File, name.span, message).with_note(note)
}

/// `function name()` with no local `name`.
fn function_statement(name: &Name) -> Diagnostic {
    let message = format!(
        "`function {0}` creates the global `{0}`, and Redis forbids creating globals",
        name.text
    );
    Diagnostic::error(Rule::GlobalWrite, Target::File, name.span, message).with_note(format!(
        "write `local function {}(...)`; at run time Redis fails with \
         \"Attempt to modify a readonly table\"",
        name.text
    ))
}

/// A write into the library `library`.
fn modifies_library(library: &Name) -> Diagnostic {
    let message = format!(
        "this modifies `{}`, which Redis makes read-only in scripts",
        library.text
    );
    Diagnostic::error(Rule::GlobalWrite, Target::File, library.span, message)
        .with_note("keep your own values in locals: `local helpers = {}`")
}

#[cfg(test)]
mod tests {
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, errors};

    #[test]
    fn globals_are_checked_and_reported_once() {
        let found = errors(
            "x = 1 x = x + 1 return keys[1] .. keys[2]",
            ONE_KEY_TWO_ARGS,
        );
        // Rule by rule: `undefined_global` before `global_write`.
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("`keys`"), "{found:?}");
        assert!(found[1].contains("creates a global"), "{found:?}");
        assert_eq!(
            errors("local x = 1 x = 2 return x", ONE_KEY_TWO_ARGS),
            Vec::<String>::new()
        );
        // A local shadowing a library is the user's own table.
        assert_eq!(
            errors(
                "local redis = {} redis.x = 1 return redis.x",
                ONE_KEY_TWO_ARGS
            )
            .len(),
            0
        );
    }

    #[test]
    fn the_first_use_of_a_name_reports_it_whichever_rule_it_is() {
        // Read first: reported as read, the assignment after is the same mistake.
        let found = errors("local y = x x = 1 return y", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`x` is not a global"), "{found:?}");
        // `function f()` is judged before its body reads `f`.
        let found = errors("function f() return f end return f()", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("`function f` creates"), "{found:?}");
    }

    #[test]
    fn libraries_are_read_only() {
        for script in [
            "string.x = 1 return 1",
            "function string.x() end return 1",
            "function redis:x() end return 1",
            "_G.x = 1 return 1",
            "_G['x'] = 1 return 1",
        ] {
            let found = errors(script, ONE_KEY_TWO_ARGS);
            assert_eq!(found.len(), 1, "{script}: {found:?}");
            assert!(found[0].starts_with("this modifies `"), "{found:?}");
        }
        // Every write is one, and writing KEYS[n] is allowed.
        assert_eq!(
            errors("string.x = 1 string.y = 2 KEYS[1] = 'k' return 1", ONE_KEY_TWO_ARGS).len(),
            2
        );
        // A field of an unknown global reads the global.
        let found = errors("t.x = 1 function u.f() end return 1", ONE_KEY_TWO_ARGS);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("`t` is not a global"), "{found:?}");
        assert!(found[1].starts_with("`u` is not a global"), "{found:?}");
    }
}
