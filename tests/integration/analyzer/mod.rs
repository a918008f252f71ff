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
