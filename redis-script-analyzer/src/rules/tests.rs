//! The rules together on whole scripts: what passes, what each target
//! server accepts.

use super::test_support::{ONE_KEY_TWO_ARGS, errors};
use super::*;
use crate::commands;
use crate::sandbox;
use crate::servers::{Server, Servers};
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
