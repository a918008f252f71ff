//! Lua 5.1 as the server reads it: the [`lexer`], the [`parser`] (whose
//! verdicts and messages equal `SCRIPT LOAD`'s), and the [`tree`] it builds.

pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod tree;
