//! What a Functions library may read while it loads, against the server:
//! for every global of the script sandbox and every member of `redis` (and
//! of Valkey's `server`), a library that reads it at its top level, then
//! registers a function. The analyzer must refuse exactly the libraries
//! FUNCTION LOAD refuses: by the `library` rule, or for `KEYS` and `ARGV`,
//! which a library's functions take as parameters, `undefined_global`.

use redis_script_analyzer::library::analyze_library;
use redis_script_analyzer::sandbox;
use redis_script_analyzer::servers::Servers;
use redis_script_analyzer::{Declared, Rule};

use super::tables::server_of;
use crate::server;

#[test]
fn the_names_a_library_reads_while_it_loads_are_the_servers() {
    let running = server::RedisServer::start();
    let server = server_of(&running);
    let mut con = running.connection();
    let mut globals: Vec<String> = redis::cmd("EVAL")
        .arg("local out = {} for k in pairs(_G) do out[#out+1] = k end return out")
        .arg(0)
        .query(&mut con)
        .expect("list the sandbox's globals");
    globals.retain(|name| !sandbox::INTERNAL_GLOBALS.contains(&name.as_str()));
    let mut paths = globals.clone();
    for (library, members) in sandbox::library_tables(server) {
        if matches!(library, "redis" | "server") {
            for member in members {
                let name = member.split('=').next().unwrap_or_default();
                paths.push(format!("{library}.{name}"));
            }
        }
    }
    paths.sort();
    paths.dedup();
    assert!(paths.len() > 40, "{paths:?}");

    let declared = Declared::default().servers(Servers::only(server));
    let mut disagreements = Vec::new();
    let mut loadable = Vec::new();
    for path in &paths {
        let source = format!(
            "#!lua name=probe\nlocal v = {path}\n\
             redis.register_function('probe', function() return 1 end)\n"
        );
        let loaded = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg("REPLACE")
            .arg(&source)
            .query::<String>(&mut con);
        let refused_by_us = analyze_library(&source, declared.clone())
            .diagnostics
            .iter()
            .any(|diagnostic| matches!(diagnostic.rule, Rule::Library | Rule::UndefinedGlobal));
        if loaded.is_ok() {
            loadable.push(path.as_str());
        }
        if loaded.is_ok() == refused_by_us {
            disagreements.push(format!(
                "{path}: the server {}, the analyzer {}",
                match &loaded {
                    Ok(_) => "loads it".to_owned(),
                    Err(error) => format!("refuses it ({error})"),
                },
                if refused_by_us {
                    "refuses it"
                } else {
                    "does not"
                }
            ));
        }
    }
    println!(
        "{server}: a library may read while it loads: {}",
        loadable.join(", ")
    );
    assert!(
        disagreements.is_empty(),
        "{} name(s) where the analyzer and {server} disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
