//! `#[redis_script::test]`: a test function run on real throwaway servers
//! by the crate `redis-script-test`.
//!
//! `attr` reads the arguments, `expand` checks the function and writes the
//! `#[test]` that starts the servers, makes the parameters and calls it.

mod attr;
mod expand;

pub use expand::test;
