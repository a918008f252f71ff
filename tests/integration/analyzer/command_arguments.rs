//! The `command_arguments` rule against the server: every command call of
//! a corpus of real scripts, and mutants of each, run alone with EVAL on
//! the server the harness starts. Every call the rule calls an error must
//! be refused by the server: no false error. The test prints how many of
//! the refused mutants the rule catches, by kind of mutation.
//!
//! The calls are [`corpus_calls`]'. Each becomes the script
//! `redis.call(<its words>) return 1`, which the rule checks and the server
//! runs with its keys of each type.

use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpStream;

use redis_script_analyzer::commands::options;
use redis_script_analyzer::servers::{Server, Servers};
use redis_script_analyzer::{Declared, Rule, analyze};

use super::corpus_calls::{Call, Word, corpus_calls, key_positions};
use super::raw::Resp;
use super::tables::server_of;
use crate::server;

/// Scripts per pipelined round trip.
const BATCH: usize = 500;
/// Mutants of each kind per call, at most.
const PER_KIND: usize = 4;

#[test]
fn every_refusal_the_rule_reports_is_the_servers() {
    let running = server::RedisServer::start();
    let server = server_of(&running);
    let target = Servers::only(server);
    let (calls, files, from_projects) = corpus_calls(server);
    // Each call, then its mutants, each with the index of the call it
    // comes from.
    let mut cases: Vec<(Call, &str, usize)> = Vec::new();
    let mut seen: BTreeSet<Call> = BTreeSet::new();
    for call in &calls {
        let base = cases.len();
        seen.insert(call.clone());
        cases.push((call.clone(), AS_WRITTEN, base));
        for (kind, mutant) in mutants(call, target) {
            if seen.insert(mutant.clone()) {
                cases.push((mutant, kind, base));
            }
        }
    }

    // What the server says of each case with its keys of each type.
    let stream = TcpStream::connect(("127.0.0.1", running.port())).expect("connect to the server");
    let mut conn = Resp::new(stream);
    let mut replies: Vec<Vec<Result<(), String>>> = vec![Vec::new(); cases.len()];
    for filled in FILLS {
        for (batch, chunk) in cases.chunks(BATCH).enumerate() {
            let scripts: Vec<String> = chunk
                .iter()
                .map(|(call, _, _)| format!("{}{}", prelude(call, server, filled), script(call)))
                .collect();
            let answers = conn.eval_each_on_empty(scripts.iter().map(String::as_str));
            for (index, answer) in answers.into_iter().enumerate() {
                replies[batch * BATCH + index].push(answer);
            }
        }
    }

    let declared = Declared::default().servers(target);
    // Per kind: refused by the server, of those reported by the rule, and
    // by the rule or `command_arity`.
    let mut tally: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let (mut unjudged, mut false_errors) = (0, Vec::new());
    for (index, (call, kind, base)) in cases.iter().enumerate() {
        let source = script(call);
        let diagnostics = analyze(&source, declared.clone()).diagnostics;
        let reported: Vec<String> = diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.rule == Rule::CommandArguments)
            .map(|diagnostic| diagnostic.message.clone())
            .collect();
        let by_arity = diagnostics
            .iter()
            .any(|diagnostic| diagnostic.rule == Rule::CommandArity);
        // Judged with its keys of the types the call as written works on.
        let judged: Vec<usize> = (0..FILLS.len())
            .filter(|&fill| replies[*base][fill].is_ok())
            .collect();
        let accepted_on: Vec<&str> = judged
            .iter()
            .filter(|&&fill| replies[index][fill].is_ok())
            .map(|&fill| FILLS[fill])
            .collect();
        if !reported.is_empty() && !judged.is_empty() && !accepted_on.is_empty() {
            false_errors.push(format!(
                "{source}  the rule: {}\n  the server accepts it with its keys as {}",
                reported.join("; "),
                accepted_on.join(", ")
            ));
        }
        if judged.is_empty() {
            unjudged += 1;
        } else if accepted_on.is_empty() {
            let counts = tally.entry(kind).or_default();
            counts.0 += 1;
            counts.1 += usize::from(!reported.is_empty());
            counts.2 += usize::from(!reported.is_empty() || by_arity);
        }
    }

    println!(
        "command_arguments on {server}: {} calls ({} files, {from_projects} of real projects), \
         {} cases ({unjudged} not judged: the call as written fails with its keys of every type)",
        calls.len(),
        files,
        cases.len()
    );
    let percent = |part: usize, whole: usize| 100.0 * part as f64 / whole.max(1) as f64;
    for (kind, (refused, caught, with_arity)) in &tally {
        println!(
            "  {kind}: the server refuses {refused}, the rule reports {caught} ({:.0}%), \
             with command_arity {with_arity} ({:.0}%)",
            percent(*caught, *refused),
            percent(*with_arity, *refused)
        );
    }
    assert!(
        false_errors.is_empty(),
        "{} call(s) the rule refuses and the server accepts:\n{}",
        false_errors.len(),
        false_errors.join("\n")
    );
}

/// A call as the corpus writes it.
const AS_WRITTEN: &str = "as written";

/// The types a call's keys are given before it runs: a case is judged
/// with its keys of each type on which the call as written succeeds (a
/// command may read its arguments only once it has found its key).
const FILLS: &[&str] = &["string", "list", "hash", "set", "zset", "stream"];

/// The lines that give each key of `call` (the words at its command's key
/// positions) a value of the type `filled`; a stream gets a consumer group
/// `'1'`, as a stand-in value is.
fn prelude(call: &Call, server: Server, filled: &str) -> String {
    let keys: BTreeSet<&str> = key_positions(call, server)
        .into_iter()
        .map(|at| call[at].lua.as_str())
        .collect();
    let mut out = String::new();
    for key in keys {
        let fill = match filled {
            "string" => format!("redis.call('SET', {key}, '1')"),
            "list" => format!("redis.call('RPUSH', {key}, '1', '2')"),
            "hash" => format!("redis.call('HSET', {key}, '1', '1')"),
            "set" => format!("redis.call('SADD', {key}, '1', '2')"),
            "zset" => format!("redis.call('ZADD', {key}, 1, '1', 2, '2')"),
            _ => format!(
                "redis.call('XADD', {key}, '1-1', '1', '1') \
                 redis.call('XGROUP', 'CREATE', {key}, '1', '0')"
            ),
        };
        out.push_str(&fill);
        out.push('\n');
    }
    out
}

/// The script that runs `call` alone.
fn script(call: &Call) -> String {
    let words: Vec<&str> = call.iter().map(|word| word.lua.as_str()).collect();
    format!("redis.call({})\nreturn 1\n", words.join(", "))
}

/// Whether a word reads as an option word: letters (and `_`/`-`), two or more.
fn option_like(word: &Word) -> bool {
    word.text.as_deref().is_some_and(|text| {
        text.len() >= 2
            && text
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
    })
}

/// Every `count`-th index of `0..n`, at most `PER_KIND`.
fn spread(n: usize) -> impl Iterator<Item = usize> {
    let step = n.div_ceil(PER_KIND).max(1);
    (0..n).step_by(step)
}

/// The mutants of `call`, each with its kind: an argument dropped, an
/// option word misspelt, another option of the command added, a number
/// given as text or as a fraction, two arguments swapped.
fn mutants(call: &Call, target: Servers) -> Vec<(&'static str, Call)> {
    let mut out = Vec::new();
    let args = call.len() - 1;
    for index in spread(args) {
        let mut mutant = call.clone();
        mutant.remove(index + 1);
        out.push(("an argument dropped", mutant));
    }
    let options_at: Vec<usize> = (1..call.len()).filter(|&i| option_like(&call[i])).collect();
    for &index in options_at.iter().take(PER_KIND) {
        let text = call[index].text.clone().unwrap_or_default();
        let mut swapped: Vec<char> = text.chars().collect();
        swapped.swap(0, 1);
        for misspelt in [
            format!("{text}S"),
            text[..text.len() - 1].to_owned(),
            swapped.into_iter().collect(),
        ] {
            let mut mutant = call.clone();
            mutant[index] = Word::text(&misspelt);
            out.push(("an option word misspelt", mutant));
        }
    }
    let name = call[0]
        .text
        .clone()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let words: Vec<_> = options(&name, target).collect();
    for index in spread(words.len()) {
        let option = words[index];
        let mut mutant = call.clone();
        mutant.push(Word::text(option.token));
        for _ in option.value.split(' ').filter(|value| !value.is_empty()) {
            mutant.push(Word::text("1"));
        }
        out.push(("an option of the command added", mutant));
    }
    let numbers: Vec<usize> = (1..call.len())
        .filter(|&i| {
            call[i].number
                || call[i]
                    .text
                    .as_deref()
                    .is_some_and(|text| text.parse::<f64>().is_ok())
        })
        .collect();
    for &index in numbers.iter().take(PER_KIND) {
        for text in ["x", "5s", "1.5"] {
            let mut mutant = call.clone();
            mutant[index] = if text == "1.5" {
                Word {
                    lua: "1.5".to_owned(),
                    text: None,
                    number: true,
                }
            } else {
                Word::text(text)
            };
            out.push(("a number replaced", mutant));
        }
    }
    for index in spread(args.saturating_sub(1)) {
        let mut mutant = call.clone();
        mutant.swap(index + 1, index + 2);
        out.push(("two arguments swapped", mutant));
    }
    out
}
