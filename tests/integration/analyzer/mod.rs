//! The Lua analyzer (`redis-script-analyzer`) where it needs a real server
//! or the repository's scripts: its tables, its reply facts and its parser
//! against the server the harness starts, and its speed on the shipped
//! scripts.

mod certain_fixes;
mod choice_probe;
mod command_arguments;
mod corpus_calls;
mod differential;
mod kind_probe;
mod load_time;
mod nil_comparison;
mod parse_time;
mod probe;
mod raw;
mod reply_conformance;
mod reply_probe;
mod resp3_replies;
mod spec_file;
mod tables;
mod type_probe;
mod wrong_type;
