//! Hover on a command's name in a call, on a container's subcommand, on
//! a word of a command's arguments (`'NX'` in a `SET` call), or on a value
//! (`'10'` after `'EX'`: the argument its grammar takes it for): what the
//! analyzer's tables know of it, in Markdown; and the signature of the
//! call a string is in (the command's grammar, and where the string
//! stands in it).

use std::collections::BTreeSet;
use std::fmt::Write;
use std::ops::Range;

use redis_script_analyzer::commands::{self, Command, OptionWord, flag};
use redis_script_analyzer::grammar;
use redis_script_analyzer::replies::{self, Length, Replies, kind};
use redis_script_analyzer::servers::{Product, Server, Servers};

use super::call_site::{self, Argument, Callers};
use super::slot::{Slot, grammar_words, slot};

/// The text to show for the call string at byte `offset` of `text`, and
/// the bytes it is about; `None` where the cursor is on no command a server
/// knows. `targets` are the servers the file is checked for.
pub(crate) fn hover(
    text: &str,
    offset: usize,
    targets: Servers,
    callers: &Callers,
) -> Option<(Range<usize>, String)> {
    let site = call_site::at(text, offset, callers)?;
    let written = &text[site.content.clone()];
    if written.is_empty() || written.contains('|') {
        return None;
    }
    let shown = match site.argument {
        Argument::Command => describe(written, targets)?,
        Argument::AfterCommand { command, before } => match slot(command, &before)? {
            Slot::Subcommand { container } => describe(&format!("{container}|{written}"), targets)?,
            Slot::Option { command } => match commands::option(&command, written) {
                Some(word) => describe_option(&word, targets),
                None => describe_value(&command, &before, targets)?,
            },
        },
    };
    Some((site.content, shown))
}

/// The signature of the call whose string holds byte `offset` of `text`
/// (an argument after the command's name): the command's grammar as one
/// line, each top-level argument's bytes in it, and the one the string is
/// for. `None` in the command's name, a container's subcommand, or a
/// command without a grammar.
pub(crate) fn signature(
    text: &str,
    offset: usize,
    targets: Servers,
    callers: &Callers,
) -> Option<grammar::Signature> {
    let site = call_site::at(text, offset, callers)?;
    let Argument::AfterCommand { command, before } = site.argument else {
        return None;
    };
    let Slot::Option { command } = slot(command, &before)? else {
        return None;
    };
    let (name, after) = grammar_words(&command, &before);
    grammar::signature(&name, &after, targets)
}

/// The argument of `command` that a value after the arguments `before`
/// stands for: `**seconds** (`SET`): an integer, after `EX``.
fn describe_value(command: &str, before: &[Option<&str>], targets: Servers) -> Option<String> {
    let (name, after) = grammar_words(command, before);
    let value = grammar::value_at(&name, &after, targets)?;
    let mut text = format!(
        "**{}** (`{}`): {}",
        value.name,
        title(&command.to_ascii_lowercase()),
        value.kind
    );
    if !value.token.is_empty() {
        let _ = write!(text, ", after `{}`", value.token);
    }
    text.push('.');
    Some(text)
}

/// What the tables say of the command (or `container|sub`) `name`: its
/// words (arity), keys and flags on each server that has it, what it
/// replies, its subcommands, and the servers that do not have it.
pub(crate) fn describe(name: &str, targets: Servers) -> Option<String> {
    let found: Vec<(Server, &Command)> = Server::ALL
        .into_iter()
        .filter_map(|server| Some((server, commands::command(server, name)?)))
        .collect();
    let (_, first) = found.first()?;
    let mut text = format!("**{}**\n\n", title(first.name));
    // The servers that agree on a command's facts, in table order.
    let mut groups: Vec<(&Command, Vec<Server>)> = Vec::new();
    for &(server, command) in &found {
        match groups
            .iter_mut()
            .find(|(facts, _)| same_facts(facts, command))
        {
            Some((_, servers)) => servers.push(server),
            None => groups.push((command, vec![server])),
        }
    }
    for (command, servers) in &groups {
        if groups.len() > 1 {
            let _ = writeln!(text, "On {}:\n", names(servers));
        }
        let _ = writeln!(text, "- arguments: {}", arguments(command));
        let _ = writeln!(text, "- keys: {}", keys(command));
        let _ = writeln!(text, "- flags: {}", flags(command));
        text.push('\n');
    }
    if let Some(replies) = replies::command_replies(name) {
        let _ = writeln!(text, "Replies {}.\n", reply_kinds(replies));
    }
    // Every server's, as servers add subcommands.
    let subcommands: BTreeSet<&str> = found
        .iter()
        .flat_map(|&(server, command)| command.subcommands(server))
        .map(|sub| sub.name)
        .collect();
    if !subcommands.is_empty() {
        let names: Vec<String> = subcommands
            .into_iter()
            .map(|sub| format!("`{}`", title(sub)))
            .collect();
        let _ = writeln!(text, "Subcommands: {}.\n", names.join(", "));
    }
    let on: Vec<Server> = found.iter().map(|&(server, _)| server).collect();
    let _ = writeln!(text, "On {}.", versions(&on));
    let missing: Vec<Server> = Server::ALL
        .into_iter()
        .filter(|server| !on.contains(server))
        .collect();
    if !missing.is_empty() {
        let targeted = missing.iter().any(|&server| targets.contains(server));
        let _ = writeln!(
            text,
            "\nNot on {}{}.",
            names(&missing),
            if targeted {
                " (a server this file is checked for)"
            } else {
                ""
            }
        );
    }
    Some(text)
}

/// `SET`, `CLIENT LIST`.
pub(crate) fn title(name: &str) -> String {
    name.replace('|', " ").to_ascii_uppercase()
}

/// One line of a command's facts, for a completion's detail:
/// `arguments: at least 2 (arity -3); write, denyoom`.
pub(crate) fn summary(command: &Command) -> String {
    let flags: Vec<&str> = command.flags.names().collect();
    format!("arguments: {}; {}", arguments(command), flags.join(", "))
}

/// What a word of a command's arguments is: the word and its command,
/// whether it takes a value, since when each product takes it, and the
/// servers that do not (saying so when the file is checked for one).
pub(crate) fn describe_option(word: &OptionWord, targets: Servers) -> String {
    let mut text = format!("**{}** (`{}`)\n\n", word.token, title(word.command));
    if word.is_flag() {
        text.push_str("A flag: the word alone.\n\n");
    } else {
        let _ = writeln!(text, "Takes a value: `{}`.\n", word.value);
    }
    let _ = writeln!(text, "{}.", capitalized(&option_since(word)));
    let missing = word.missing_on(Servers::ALL);
    if !missing.is_empty() {
        let targeted = !missing.and(targets).is_empty();
        let _ = writeln!(
            text,
            "\nNot on {}{}.",
            missing.names(),
            if targeted {
                " (a server this file is checked for)"
            } else {
                ""
            }
        );
    }
    text
}

/// One line of a word's facts, for a completion's detail:
/// `flag; since Redis 6.2.0, Valkey 6.2.0`.
pub(crate) fn option_summary(word: &OptionWord) -> String {
    let kind = if word.is_flag() {
        "flag".to_owned()
    } else {
        format!("takes a value: {}", word.value)
    };
    format!("{kind}; {}", option_since(word))
}

/// `since Redis 6.2.0, Valkey 6.2.0`, or `since Valkey 8.1.0; not in Redis`.
fn option_since(word: &OptionWord) -> String {
    let (on, off): (Vec<Product>, Vec<Product>) = [Product::Redis, Product::Valkey]
        .into_iter()
        .partition(|&product| word.since(product).is_some());
    let since: Vec<String> = on
        .iter()
        .filter_map(|&product| Some(format!("{product} {}", word.since(product)?)))
        .collect();
    let mut text = format!("since {}", since.join(", "));
    for product in off {
        let _ = write!(text, "; not in {product}");
    }
    text
}

/// `Since ...` from `since ...`.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

fn same_facts(a: &Command, b: &Command) -> bool {
    (a.arity, a.flags, a.first_key, a.last_key, a.key_step)
        == (b.arity, b.flags, b.first_key, b.last_key, b.key_step)
}

/// How many arguments a call passes after the name (and subcommand):
/// `at least 2 (arity -3)`.
fn arguments(command: &Command) -> String {
    let name_words = if command.container().is_some() { 2 } else { 1 };
    let count = (command.arity.unsigned_abs() as usize).saturating_sub(name_words);
    let bound = if command.arity < 0 { "at least " } else { "" };
    format!("{bound}{count} (arity {})", command.arity)
}

/// Which arguments are keys, counted after the command's name as
/// `redis.call` passes them.
fn keys(command: &Command) -> String {
    if command.flags.contains(flag::MOVABLEKEYS) {
        return "found in the arguments (`movablekeys`)".to_owned();
    }
    if command.first_key <= 0 {
        return "none".to_owned();
    }
    let last = match command.last_key {
        -1 => "the last".to_owned(),
        last if last < 0 => format!("the last but {}", -last - 1),
        last => last.to_string(),
    };
    let step = match command.key_step {
        step if step > 1 => format!(", one in {step}"),
        _ => String::new(),
    };
    if command.last_key == command.first_key {
        format!("argument {}", command.first_key)
    } else {
        format!("arguments {} to {last}{step}", command.first_key)
    }
}

/// The flags, those that decide what a script may do first.
fn flags(command: &Command) -> String {
    let mut said = Vec::new();
    if command.is_noscript() {
        said.push("`noscript`: refused in a script".to_owned());
    }
    if command.is_write() {
        said.push("`write`: refused in a `no-writes` script".to_owned());
    }
    if command.is_readonly() {
        said.push("`readonly`".to_owned());
    }
    let shown = flag::NOSCRIPT | flag::WRITE | flag::READONLY;
    said.extend(
        commands::Flags(command.flags.0 & !shown)
            .names()
            .map(|name| format!("`{name}`")),
    );
    if said.is_empty() {
        "none".to_owned()
    } else {
        said.join(", ")
    }
}

/// `an integer, or nil`.
fn reply_kinds(replies: &Replies) -> String {
    let mut kinds = Vec::new();
    let has = |bits| replies.kinds.contains(bits);
    if has(kind::INTEGER) {
        kinds.push("an integer".to_owned());
    }
    if has(kind::STATUS) {
        let texts: Vec<String> = replies.statuses.iter().map(|s| format!("`{s}`")).collect();
        kinds.push(format!("the status {}", texts.join(" or ")));
    }
    if has(kind::STRING) {
        kinds.push(match replies.pattern {
            Some(replies::STREAM_ID) => "a stream ID".to_owned(),
            _ => "a string".to_owned(),
        });
    }
    if has(kind::ARRAY) {
        let mut array = match replies.length {
            Length::Exactly(n) => format!("an array of {n}"),
            Length::AtLeast(n) => format!("an array of at least {n}"),
            _ => "an array".to_owned(),
        };
        if let Some(elements) = replies.elements {
            let inner = reply_kinds(&Replies::of(elements.0));
            array.push_str(&format!(" (each {inner})"));
        }
        kinds.push(array);
    }
    if has(kind::NIL) {
        kinds.push("nil (`false` in Lua)".to_owned());
    }
    match kinds.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "nothing known".to_owned(),
    }
}

/// `Redis 7.0, Redis 8.2`.
fn names(servers: &[Server]) -> String {
    servers
        .iter()
        .fold(Servers::empty(), |set, &s| set.with(s))
        .names()
}

/// `Redis 7.0 (7.0.15), Redis 7.2, ...`: each server, with the exact
/// version its table was read from when that says more than the release.
fn versions(servers: &[Server]) -> String {
    let each: Vec<String> = servers
        .iter()
        .map(|server| {
            if server.version() == server.release() {
                server.name().to_owned()
            } else {
                format!("{} ({})", server.name(), server.version())
            }
        })
        .collect();
    each.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hover with the callers the text gives.
    fn hover(text: &str, offset: usize, targets: Servers) -> Option<(Range<usize>, String)> {
        super::hover(text, offset, targets, &Callers::of([text]))
    }

    #[test]
    fn a_command_and_a_subcommand() {
        let text = "return redis.call('set', KEYS[1], 'v')";
        let offset = text.find("set").unwrap() + 1;
        let (range, shown) = hover(text, offset, Servers::ALL).unwrap();
        assert_eq!(&text[range], "set");
        assert!(shown.starts_with("**SET**"), "{shown}");
        assert!(
            shown.contains("arguments: at least 2 (arity -3)"),
            "{shown}"
        );
        assert!(shown.contains("keys: argument 1\n"), "{shown}");
        assert!(shown.contains("`write`: refused"), "{shown}");
        assert!(shown.contains("the status `OK`"), "{shown}");
        assert!(shown.contains("Redis 7.0 (7.0.15)"), "{shown}");
        let text = "redis.call('CONFIG', 'GET', 'x')";
        let (_, shown) = hover(text, text.find("GET").unwrap(), Servers::ALL).unwrap();
        assert!(shown.starts_with("**CONFIG GET**"), "{shown}");
        assert!(shown.contains("`noscript`: refused in a script"), "{shown}");
        let (_, shown) = hover(text, text.find("CONFIG").unwrap(), Servers::ALL).unwrap();
        assert!(shown.contains("`CONFIG GET`"), "{shown}");
    }

    #[test]
    fn servers_that_differ_or_lack_it() {
        let (_, shown) = hover("redis.call('HGETEX', 'k')", 13, Servers::ALL).unwrap();
        assert!(shown.contains("Not on Redis 7.0"), "{shown}");
        assert!(
            shown.contains("(a server this file is checked for)"),
            "{shown}"
        );
        let (_, shown) = hover(
            "redis.call('HGETEX', 'k')",
            13,
            Servers::only(Server::Redis8_2),
        )
        .unwrap();
        assert!(!shown.contains("checked for"), "{shown}");
        assert_eq!(hover("redis.call('NOSUCH')", 13, Servers::ALL), None);
        // A value: the argument the grammar takes it for.
        assert_eq!(
            hover("redis.call('GET', 'x')", 19, Servers::ALL).map(|(_, shown)| shown),
            Some("**key** (`GET`): a key.".to_owned())
        );
    }

    #[test]
    fn key_positions() {
        let blpop = commands::command(Server::Redis7_0, "blpop").unwrap();
        assert_eq!(keys(blpop), "arguments 1 to the last but 1");
        let mset = commands::command(Server::Redis7_0, "mset").unwrap();
        assert_eq!(keys(mset), "arguments 1 to the last, one in 2");
        let ping = commands::command(Server::Redis7_0, "ping").unwrap();
        assert_eq!(keys(ping), "none");
    }

    #[test]
    fn a_word_of_a_command() {
        let text = "redis.call('SET', KEYS[1], ARGV[1], 'nx')";
        let (range, shown) = hover(text, text.find("nx").unwrap(), Servers::ALL).unwrap();
        assert_eq!(&text[range], "nx");
        assert!(shown.starts_with("**NX** (`SET`)"), "{shown}");
        assert!(shown.contains("A flag"), "{shown}");
        assert!(
            shown.contains("Since Redis 2.6.12, Valkey 2.6.12."),
            "{shown}"
        );
        let text = "redis.call('CLIENT', 'KILL', 'MAXAGE', 60)";
        let (_, shown) = hover(text, text.find("MAXAGE").unwrap(), Servers::ALL).unwrap();
        assert!(shown.starts_with("**MAXAGE** (`CLIENT KILL`)"), "{shown}");
        assert!(shown.contains("Takes a value: `integer`."), "{shown}");
        assert!(
            shown.contains("Since Redis 7.4.0, Valkey 8.0.0."),
            "{shown}"
        );
        assert!(
            shown.contains("Not on Redis 7.0 and Redis 7.2 (a server this file is checked for)."),
            "{shown}"
        );
        let text = "redis.call('SET', k, v, 'IFEQ', old)";
        let (_, shown) = hover(text, text.find("IFEQ").unwrap(), Servers::VALKEY).unwrap();
        assert!(
            shown.contains("Since Valkey 8.1.0; not in Redis."),
            "{shown}"
        );
        assert_eq!(
            hover("redis.call('SET', k, v, 'NOSUCH')", 26, Servers::ALL),
            None
        );
    }
}
