//! Lua for this repository's own tests: the repository's scripts, the
//! cases the parser's verdicts are known for, and the edits of the tests
//! that mutate scripts (see [`lua`]).
//!
//! The servers the tests run on come from the published crate
//! `redis-script-test`, as users' tests get theirs.

#![warn(missing_docs)]

pub mod lua;
