//! The `wrong_type` rule against the server: pairs of the corpus's calls
//! ([`corpus_calls`]) on one key, the first on line 1 and the second on
//! line 2 of a script run on an empty database. Wherever the rule says
//! the second call fails with WRONGTYPE, the server must refuse that very
//! call so (when the first call runs): no false error. The test prints how
//! many of the pairs the server refuses with WRONGTYPE the rule reports.

use std::net::TcpStream;

use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{Declared, Rule, analyze};

use super::corpus_calls::{Call, corpus_calls, key_positions};
use super::raw::Resp;
use super::tables::server_of;
use crate::server;

/// Second calls tried after each first one.
const PARTNERS: usize = 8;
/// Scripts per pipelined round trip.
const BATCH: usize = 500;

#[test]
fn every_wrongtype_the_rule_reports_is_the_servers() {
    let running = server::RedisServer::start();
    let server = server_of(&running);
    let (calls, _, _) = corpus_calls(server);
    // Calls whose first key is their first argument: a pair shares it.
    let calls: Vec<Call> = calls
        .into_iter()
        .filter(|call| key_positions(call, server).first() == Some(&1))
        .collect();
    let mut scripts = Vec::new();
    for (index, first) in calls.iter().enumerate() {
        for step in 1..=PARTNERS {
            let second = &calls[(index * 7 + step * 13) % calls.len()];
            if second[0].lua.eq_ignore_ascii_case(&first[0].lua) {
                continue;
            }
            let mut second = second.clone();
            second[1] = first[1].clone();
            scripts.push(format!("{}\n{}\nreturn 1\n", line(first), line(&second)));
        }
    }

    let stream = TcpStream::connect(("127.0.0.1", running.port())).expect("connect to the server");
    let mut conn = Resp::new(stream);
    let declared = Declared::default().servers(Servers::only(server));
    let (mut refused, mut caught, mut judged) = (0, 0, 0);
    let mut false_errors = Vec::new();
    for batch in scripts.chunks(BATCH) {
        let replies = conn.eval_each_on_empty(batch.iter().map(String::as_str));
        for (script, reply) in batch.iter().zip(replies) {
            let reported: Vec<String> = analyze(script, declared.clone())
                .diagnostics
                .into_iter()
                .filter(|diagnostic| diagnostic.rule == Rule::WrongType)
                .map(|diagnostic| diagnostic.message)
                .collect();
            // Where the first call fails, the second never runs.
            let first_fails = reply
                .as_ref()
                .is_err_and(|message| message.contains("@user_script:1"));
            if first_fails {
                continue;
            }
            judged += 1;
            let wrongtype = reply
                .as_ref()
                .is_err_and(|message| message.starts_with("WRONGTYPE"));
            if wrongtype {
                refused += 1;
                caught += usize::from(!reported.is_empty());
            } else if !reported.is_empty() {
                false_errors.push(format!(
                    "{script}  the rule: {}\n  the server: {}",
                    reported.join("; "),
                    reply.err().unwrap_or_else(|| "accepted".to_owned())
                ));
            }
        }
    }
    println!(
        "wrong_type on {server}: {} pairs, {judged} where the first call runs; the server \
         refuses {refused} with WRONGTYPE, the rule reports {caught} ({:.0}%)",
        scripts.len(),
        100.0 * caught as f64 / refused.max(1) as f64
    );
    assert!(
        false_errors.is_empty(),
        "{} pair(s) the rule says fail with WRONGTYPE and the server does not:\n{}",
        false_errors.len(),
        false_errors.join("\n")
    );
}

/// `redis.call(<the call's words>)`.
fn line(call: &Call) -> String {
    let words: Vec<&str> = call.iter().map(|word| word.lua.as_str()).collect();
    format!("redis.call({})", words.join(", "))
}
