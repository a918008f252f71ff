//! What a binding is made of, read once: the declaration (`ast`), the
//! attribute's arguments (`attr`), the Lua file (`script_file`) and its
//! header (`header`), and the crate's target servers (`manifest`), gathered
//! in one [`Request`](request::Request) whichever route it came by
//! (`folder` builds one per script of a `scripts!` folder).

pub mod ast;
pub mod attr;
pub mod folder;
pub mod header;
pub mod manifest;
pub mod request;
pub mod script_file;
