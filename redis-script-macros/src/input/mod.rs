//! What a binding is made of, read once: the declaration, the arguments,
//! the Lua file and its header, and the crate's target servers, gathered
//! in one [`Request`](request::Request) whichever route it came by.

pub mod request;
