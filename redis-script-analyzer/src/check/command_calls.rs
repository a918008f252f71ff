//! `redis.call('NAME', ...)` recognized by its syntax alone, for the
//! nil-return check until it reads the semantic model; the rules on
//! commands read [`crate::semantic::CommandCall`]s.

use crate::syntax::tree::Expr;

/// A literal-named command call: `redis.call('GET', ...)`.
pub(super) struct RedisCall {
    /// The command name, lower case.
    pub(super) name: String,
}

/// `redis.call('NAME', ...)` or `redis.pcall(...)` with a literal name (or
/// `server.call`, Valkey's other name for the library).
pub(super) fn redis_call(func: &Expr, args: &[Expr]) -> Option<RedisCall> {
    let Expr::Index { obj, key, .. } = func else {
        return None;
    };
    let Expr::Name(library) = &**obj else {
        return None;
    };
    let is_redis = library.text == "redis" || library.text == "server";
    let is_call =
        matches!(&**key, Expr::String(member, _) if member == b"call" || member == b"pcall");
    match args.first() {
        Some(Expr::String(name, _)) if is_redis && is_call => Some(RedisCall {
            name: String::from_utf8_lossy(name).to_ascii_lowercase(),
        }),
        _ => None,
    }
}
