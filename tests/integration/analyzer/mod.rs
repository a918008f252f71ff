//! The Lua analyzer (`redis-script-analyzer`) where it needs a real server
//! or the repository's scripts: its tables, its reply facts and its parser
//! against the server the harness starts, and its speed on the shipped
//! scripts.

mod derive;
mod differential;
mod nil_comparison;
mod option_words;
mod parse_time;
mod reply_conformance;
mod reply_specs;
mod tables;

/// What a `regenerate` test does with a generated file whose text is now
/// `new`: with `REDIS_SCRIPT_REGENERATE=1` it writes it and says so, with
/// `what` (a few words on its content); without, it only says whether the
/// file is current.
fn write_generated(path: &std::path::Path, new: &str, what: &str) {
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let changed = if new == current {
        "unchanged"
    } else {
        "changed"
    };
    if std::env::var("REDIS_SCRIPT_REGENERATE").as_deref() == Ok("1") {
        std::fs::write(path, new).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        eprintln!("wrote {}: {what} ({changed})", path.display());
    } else {
        eprintln!(
            "{} is {}current; set REDIS_SCRIPT_REGENERATE=1 to write it",
            path.display(),
            if new == current { "" } else { "NOT " }
        );
    }
}
