//! The repository's own tasks, run as `cargo xtask <task>`:
//!
//! - `cargo xtask codegen` writes the analyzer's generated tables from
//!   `redis-script-analyzer/specs/` alone (no server, no file outside the
//!   repository);
//! - `cargo xtask codegen --check` writes nothing and fails naming each
//!   table that is missing or not what the specifications give;
//! - `cargo xtask valkey-files <valkey source>` stores the facts of a Valkey
//!   release's own command specification files in
//!   `redis-script-analyzer/specs/` (see `valkey_files.rs`).

mod commands;
mod derive;
mod files;
mod forms;
mod grammar;
mod key_types;
mod options;
mod replies;
mod servers;
mod specs;
mod valkey_files;
mod version;

use std::process::ExitCode;

use crate::files::repository;
use crate::specs::Specs;

const USAGE: &str =
    "usage: cargo xtask codegen [--check]\n       cargo xtask valkey-files <valkey source>";

/// Every generated file, by its path from the repository's root, with the
/// text the specifications give it.
fn generated(specs: &Specs) -> [(&'static str, String); 5] {
    [
        (commands::FILE, commands::render(specs)),
        (grammar::FILE, grammar::render(specs)),
        (key_types::FILE, key_types::render(specs)),
        (options::FILE, options::render(specs)),
        (replies::FILE, replies::render(specs)),
    ]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["codegen"] => false,
        ["codegen", "--check"] => true,
        ["valkey-files", source] => {
            let path = valkey_files::store(&repository(), std::path::Path::new(source));
            eprintln!("wrote {}", path.display());
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = repository();
    let specs = Specs::load(&root);
    let mut stale = 0;
    for (file, text) in generated(&specs) {
        let path = root.join(file);
        let state = match std::fs::read_to_string(&path) {
            Ok(current) if current == text => continue,
            Ok(_) => "stale",
            Err(_) => "missing",
        };
        if check {
            eprintln!("{file}: {state}");
            stale += 1;
        } else {
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {file}: {e}"));
            eprintln!("wrote {file} (was {state})");
        }
    }
    if stale > 0 {
        eprintln!(
            "{stale} generated file(s) not what {} gives: run `cargo xtask codegen`",
            specs::DIR
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
