//! The checks on a parsed script: the semantic model built once, and the
//! rules that read it ([`crate::rules`]), for a script or for a Redis
//! Functions library and each function it registers.
//!
//! Every check is conservative: where the script's meaning is not certain
//! from its text (a dynamic index, a shadowed name, a computed command name),
//! it says nothing.

pub use crate::declared::{Declared, ReplyKind};
use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::semantic::{Environment, FunctionId, Model};
use crate::syntax::tree::Chunk;
#[cfg(test)]
use crate::{
    diagnostic::{Allowed, Checker},
    reply_type::RustType,
    servers::{Server, Servers},
};

/// Runs every check on `chunk` (parsed from `source`), and leaves out what
/// `declared` allows.
pub fn check(source: &[u8], chunk: &Chunk, declared: &Declared) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let model = Model::build(chunk, Environment::Script);
    let context = rules::Context {
        source,
        model: &model,
        declared,
        callback: None,
    };
    rules::run(&context, &mut diagnostics);
    allowed_out(diagnostics, declared)
}

/// A registered function of a library to check: its callback's function
/// in the library's model, and the declaration it is checked against (its
/// `read_only` from the registration's flags).
pub(crate) struct Callback {
    pub(crate) function: FunctionId,
    pub(crate) declared: Declared,
}

/// The checks of a Redis Functions library, whose `model` is built once
/// with the callbacks set ([`Model::set_callbacks`]): the rules that judge
/// the whole file (its names, its commands) once, against `declared`; then
/// the rules that judge a function's code, on each of `callbacks` against
/// its own declaration, reading the callback's own part of the model. So
/// the cost is the library's size, not its size times its functions.
/// Without callbacks (the text settles none), only the file's rules.
pub(crate) fn check_library(
    source: &[u8],
    model: &Model,
    declared: &Declared,
    callbacks: &[Callback],
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let file = rules::Context {
        source,
        model,
        declared,
        callback: None,
    };
    rules::run(&file, &mut diagnostics);
    for callback in callbacks {
        let context = rules::Context {
            source,
            model,
            declared: &callback.declared,
            callback: Some(callback.function),
        };
        rules::run(&context, &mut diagnostics);
    }
    allowed_out(diagnostics, declared)
}

/// `diagnostics` without the findings `declared` allows.
fn allowed_out(mut diagnostics: Vec<Diagnostic>, declared: &Declared) -> Vec<Diagnostic> {
    diagnostics.retain(|diagnostic| !declared.allowed.allows(diagnostic.rule));
    diagnostics
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    use crate::diagnostic::{Severity, Target};
    use crate::syntax::parser::parse;

    /// The findings of one rule's `check` on the script `source`.
    pub(crate) fn run_rule(
        source: &str,
        declared: &Declared,
        check: fn(&rules::Context, &mut Vec<Diagnostic>),
    ) -> Vec<Diagnostic> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        let model = Model::build(&chunk, Environment::Script);
        let context = rules::Context {
            source: source.as_bytes(),
            model: &model,
            declared,
            callback: None,
        };
        let mut diagnostics = Vec::new();
        check(&context, &mut diagnostics);
        diagnostics
    }

    /// For each finding of one rule's `check` on `source`, the script with
    /// the finding's fix applied, which must be certain; `None` for a
    /// finding without a fix.
    pub(crate) fn fixed(
        source: &str,
        declared: Declared,
        check: fn(&rules::Context, &mut Vec<Diagnostic>),
    ) -> Vec<Option<String>> {
        run_rule(source, &declared, check)
            .into_iter()
            .map(|diagnostic| {
                let fix = diagnostic.fix?;
                assert_eq!(fix.applicability, crate::fix::Applicability::Certain);
                Some(apply(source, &fix))
            })
            .collect()
    }

    /// `source` with the edits of `fix` made.
    pub(crate) fn apply(source: &str, fix: &crate::fix::Fix) -> String {
        let mut out = Vec::new();
        let mut at = 0;
        for edit in &fix.edits {
            assert!(edit.span.start >= at, "overlapping edits: {fix:?}");
            out.extend_from_slice(&source.as_bytes()[at..edit.span.start]);
            out.extend_from_slice(edit.replacement.as_bytes());
            at = edit.span.end;
        }
        out.extend_from_slice(&source.as_bytes()[at..]);
        String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
    }

    pub(crate) const ONE_KEY_TWO_ARGS: Declared = Declared {
        keys: 1,
        args: 2,
        variadic: false,
        variadic_keys: false,
        reply: ReplyKind::Nullable,
        reply_type: RustType::Other,
        read_only: false,
        allowed: Allowed::NONE,
        servers: Servers::ALL,
        checker: Checker::Attribute,
        cluster: false,
    };

    /// Every finding on `source`: severity, target and message.
    pub(crate) fn findings(source: &str, declared: Declared) -> Vec<(Severity, Target, String)> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        check(source.as_bytes(), &chunk, &declared)
            .into_iter()
            .map(|d| (d.severity, d.target, d.message))
            .collect()
    }

    /// The messages of the errors on `source`.
    pub(crate) fn errors(source: &str, declared: Declared) -> Vec<String> {
        findings(source, declared)
            .into_iter()
            .filter(|(severity, ..)| *severity == Severity::Error)
            .map(|(.., message)| message)
            .collect()
    }

    /// The notes of the errors on `source`.
    pub(crate) fn notes(source: &str, declared: Declared) -> Vec<String> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        check(source.as_bytes(), &chunk, &declared)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .filter_map(|d| d.note)
            .collect()
    }

    /// The messages of the errors on the function `function` of the
    /// library `source`, declared with one key and two arguments.
    pub(crate) fn library_errors(source: &str, function: &str) -> Vec<String> {
        crate::library::analyze_function(source, function, ONE_KEY_TWO_ARGS)
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{ONE_KEY_TWO_ARGS, errors};
    use super::*;
    use crate::commands;
    use crate::sandbox;
    use crate::syntax::parser::parse;

    #[test]
    fn correct_scripts_pass() {
        let scripts = [
            "return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])",
            "local n = 0 for i, key in ipairs(KEYS) do n = n + redis.call('EXISTS', key) end return n",
            "local function twice(x) return x * 2 end return twice(tonumber(ARGV[1]))",
            "local t = {} t.x = 1 KEYS[1] = 'k' return cjson.encode(t)",
            "local ok, err = pcall(function() return redis.call('GET', KEYS[1]) end) return ok",
            "return select('#', ...)",
            "local s = string.format('%s:%d', ARGV[1], 3) return s:upper()",
            "repeat local done = true until done return bit.band(3, 1)",
            "redis.call('CONFIG', ARGV[1]) return 1",
        ];
        for script in scripts {
            let declared = Declared {
                variadic: true,
                ..ONE_KEY_TWO_ARGS
            };
            assert_eq!(errors(script, declared), Vec::<String>::new(), "{script}");
        }
    }

    #[test]
    fn library_members_and_commands_are_checked() {
        let found = errors(
            "redis.calll('GET', KEYS[1]) string.formatt('x') redis.call('GETT') \
             redis.call('config', 'get', 'x') redis.call('config', 'nosuch') redis.call('get')",
            ONE_KEY_TWO_ARGS,
        );
        assert_eq!(found.len(), 6, "{found:?}");
        let read_only = Declared {
            read_only: true,
            ..ONE_KEY_TWO_ARGS
        };
        let found = errors(
            "redis.call('GET', KEYS[1]) return redis.call('set', KEYS[1], ARGV[1])",
            read_only,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("declared `no-writes`"), "{found:?}");
    }

    #[test]
    fn fallbacks_under_or_are_not_mistakes() {
        let scripts = [
            "local unpack = unpack or table.unpack return unpack(KEYS)",
            "local limit = tonumber(ARGV[3]) or 10 return limit + ARGV[1] + ARGV[2]",
            "return redis.call('JSON.GET', KEYS[1], '$')",
        ];
        for script in scripts {
            assert_eq!(
                errors(script, ONE_KEY_TWO_ARGS),
                Vec::<String>::new(),
                "{script}"
            );
        }
        // Outside `or`, and inside a function under it, the checks apply.
        assert_eq!(
            errors("return table.unpack(KEYS)", ONE_KEY_TWO_ARGS).len(),
            1
        );
        assert_eq!(errors("return ARGV[3]", ONE_KEY_TWO_ARGS).len(), 1);
        let inner = "local f = nil or function() return ARGV[3] end return f()";
        assert_eq!(errors(inner, ONE_KEY_TWO_ARGS).len(), 1);
    }

    const VALKEY_ONLY: Declared = Declared {
        servers: Servers::VALKEY,
        ..ONE_KEY_TWO_ARGS
    };

    const REDIS_ONLY: Declared = Declared {
        servers: Servers::only(Server::Redis7_0),
        ..ONE_KEY_TWO_ARGS
    };

    /// Every script of `scripts` is refused by default (every server) and
    /// on Redis 7.0 alone, with a note naming exactly `having` and the
    /// setting that targets them, and passes when the targets are `having`.
    fn refused_unless_targeted(scripts: &[&str], having: Servers) {
        for script in scripts {
            let found = errors(script, ONE_KEY_TWO_ARGS);
            assert_eq!(found.len(), 1, "{script}: {found:?}");
            assert_eq!(errors(script, REDIS_ONLY), found, "{script}");
            let note = check(
                script.as_bytes(),
                &parse(script).unwrap(),
                &ONE_KEY_TWO_ARGS,
            )[0]
            .note
            .clone()
            .unwrap_or_default();
            let expected = format!("it exists on {} only", having.names());
            assert!(
                note.contains(&expected) && note.contains(&having.cargo_toml()),
                "{script}: {note}"
            );
            let targeted = Declared {
                servers: having,
                ..ONE_KEY_TWO_ARGS
            };
            assert_eq!(errors(script, targeted), Vec::<String>::new(), "{script}");
        }
    }

    #[test]
    fn valkey_names_are_errors_unless_valkey_is_the_only_target() {
        refused_unless_targeted(
            &[
                "return server.call('GET', KEYS[1])",
                "return redis.VALKEY_VERSION",
            ],
            Servers::VALKEY,
        );
        let found = errors("return server.call('GET', KEYS[1])", ONE_KEY_TWO_ARGS);
        assert!(found[0].contains("not a global of the script sandbox of Redis 7.0.15"));
        // A Valkey script is checked as a Redis one: the command table too.
        let found = errors("return server.call('GETT', KEYS[1])", VALKEY_ONLY);
        assert!(
            found[0].starts_with("`gett` is not a Redis command"),
            "{found:?}"
        );
        let found = errors("return os.time()", VALKEY_ONLY);
        assert!(found[0].contains("`os.time` does not exist"), "{found:?}");
    }

    #[test]
    fn what_redis_7_0_lacks_is_an_error_unless_every_target_has_it() {
        let since_7_2 = Servers::ALL.filter(|server| server != Server::Redis7_0);
        refused_unless_targeted(
            &[
                "return redis.call('WAITAOF', 0, 0, 0)",
                "return redis.call('BLPOP', KEYS[1], 1)",
                "return redis.call('ZRANK', KEYS[1], ARGV[1], 'WITHSCORE')",
                "return redis.call('CLUSTER', 'MYSHARDID')",
            ],
            since_7_2,
        );
        let since_7_4 = since_7_2.filter(|server| server != Server::Redis7_2);
        refused_unless_targeted(&["return os.clock()"], since_7_4);
    }

    #[test]
    fn newer_commands_are_errors_unless_every_target_has_them() {
        const VALKEY_9_1: Declared = Declared {
            servers: Servers::only(Server::Valkey9_1),
            ..ONE_KEY_TWO_ARGS
        };
        let hash_field_expiry = Servers::only(Server::Redis7_4)
            .with(Server::Redis8_0)
            .with(Server::Redis8_2)
            .with(Server::Valkey9_1);
        refused_unless_targeted(
            &["return redis.call('HEXPIRE', KEYS[1], ARGV[2], 'FIELDS', 1, ARGV[1])"],
            hash_field_expiry,
        );
        refused_unless_targeted(
            &["return redis.call('HGETEX', KEYS[1], 'EX', ARGV[2], 'FIELDS', 1, ARGV[1])"],
            hash_field_expiry.filter(|server| server != Server::Redis7_4),
        );
        refused_unless_targeted(
            &["return redis.call('DELIFEQ', KEYS[1], ARGV[1] .. ARGV[2])"],
            Servers::only(Server::Valkey9_1),
        );
        refused_unless_targeted(
            &["return redis.call('VADD', KEYS[1], 'VALUES', 1, ARGV[1], ARGV[2])"],
            Servers::only(Server::Redis8_0).with(Server::Redis8_2),
        );
        // Refusals quote the refusing server's words.
        let found = errors("return redis.call('CONFIG', 'GET', ARGV[1])", VALKEY_9_1);
        assert!(
            found[0].contains("This Valkey command is not allowed from script"),
            "{found:?}"
        );
        let found = errors("return redis.call('GET')", VALKEY_9_1);
        assert!(
            found[0].contains("Wrong number of args calling command from script"),
            "{found:?}"
        );
    }

    #[test]
    fn an_older_server_alone_accepts_nothing_a_newer_one_refuses() {
        // Each release has every name and command of the one before (Valkey
        // 8.0 every one of Redis 7.2, which it forked from), with arities at
        // least as wide and no more `noscript` flags: what passes for the
        // older alone passes for the newer too.
        let pairs = [
            (Server::Redis7_0, Server::Redis7_2),
            (Server::Redis7_2, Server::Redis7_4),
            (Server::Redis7_4, Server::Redis8_0),
            (Server::Redis8_0, Server::Redis8_2),
            (Server::Redis7_2, Server::Valkey8_0),
            (Server::Valkey8_0, Server::Valkey8_1),
            (Server::Valkey8_1, Server::Valkey9_1),
        ];
        for (older, newer) in pairs {
            for command in older.commands() {
                let name = command.name();
                let on_newer = commands::command(newer, name)
                    .unwrap_or_else(|| panic!("{name} is not on {newer}"));
                assert!(
                    !on_newer.is_noscript() || command.is_noscript(),
                    "{name} on {newer}"
                );
                // Every word count the older takes (up to a bound past every
                // fixed arity), the newer takes too.
                for words in 1..64 {
                    assert!(
                        !command.accepts_word_count(words) || on_newer.accepts_word_count(words),
                        "{name} with {words} words on {newer}"
                    );
                }
            }
            assert!(
                sandbox::GLOBALS
                    .iter()
                    .all(|g| !g.servers.contains(older) || g.servers.contains(newer))
            );
        }
    }
}
