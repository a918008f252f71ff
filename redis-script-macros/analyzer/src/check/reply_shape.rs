//! The reply-shape check: the shapes a script can reply (integer, bulk
//! string, status, array, nil, double), from what it returns, against the
//! shapes the declared return type can hold ([`Declared::accepts`]).
//!
//! A script's shapes are known only when every `return` of its main
//! function settles one: a literal (`1`, `'x'`, `nil`, `true` replies 1,
//! `false` nil), a table (`{ok = ...}` a status, `{err = ...}` an error,
//! `{double = ...}` a double, any other an array), a Redis command with a
//! fixed reply returned directly (`redis.call('INCR', ...)` an integer,
//! `HGETALL` an array, `GET` a string or nil; [`command_reply`]),
//! `redis.status_reply`, `tonumber` (an integer or nil), `tostring`,
//! `cjson.encode`, `string.*` and `..` (strings), `#t` and arithmetic
//! (integers), comparisons and `not` (1 or nil), or a local whose one
//! declaration settles it and that is never assigned again. Anything else
//! (a function's result, `a and b`, a local assigned twice) leaves the
//! shapes unknown, and the check says nothing. Errors (`error()`,
//! `redis.error_reply`, `{err = ...}`) are not replies a type must hold.
//!
//! The check refuses a type that holds none of the shapes, e.g. `Vec<String>`
//! for a script that always returns `redis.call('INCR', ...)`.

use std::collections::HashMap;

use super::nil_return::{fall_through_span, stat_blocks, terminates};
use super::{Declared, Shapes};
use crate::ast::{BinOp, Block, Chunk, Expr, Field, Span, Stat, UnOp};
use crate::diagnostic::{Checker, Diagnostic, Rule, Target};

/// Refuses `declared.accepts` if it holds none of the shapes `chunk` can reply.
pub(super) fn check(chunk: &Chunk, declared: &Declared, diagnostics: &mut Vec<Diagnostic>) {
    if declared.accepts == Shapes::ALL {
        return;
    }
    let locals = Locals::of(&chunk.block);
    let mut returns = Vec::new();
    collect_returns(&chunk.block, &mut returns);
    let mut replies = Shapes::NONE;
    for (expr, _) in &returns {
        match expr.map_or(Some(Shapes::NIL), |expr| shape_of(expr, &locals, 0)) {
            Some(shapes) => replies = replies.union(shapes),
            // Not settled by the text: say nothing.
            None => return,
        }
    }
    if !terminates(&chunk.block) {
        replies = replies.union(Shapes::NIL);
    }
    if replies == Shapes::NONE || replies.intersects(declared.accepts) {
        return;
    }
    let span = returns
        .first()
        .map_or_else(|| fall_through_span(&chunk.block), |(_, span)| *span);
    diagnostics.push(
        Diagnostic::error(
            Rule::ReplyShape,
            Target::Reply,
            span,
            format!(
                "the script replies {}, which the declared return type cannot hold",
                replies.describe()
            ),
        )
        .with_note(match declared.checker {
            Checker::Attribute => {
                format!("declare a type that holds it, e.g. `{}`", replies.example())
            }
            Checker::CommandLine => {
                "declare a reply type in the header that holds it, e.g. `---@return any`".to_owned()
            }
        }),
    );
}

/// The first value of each `return` of the main function (`None` for a
/// bare `return`), with the return's span.
fn collect_returns<'a>(block: &'a Block, returns: &mut Vec<(Option<&'a Expr>, Span)>) {
    for stat in &block.stats {
        for inner in stat_blocks(stat) {
            collect_returns(inner, returns);
        }
    }
    if let Some(ret) = &block.ret {
        returns.push((ret.exprs.first(), ret.span));
    }
}

/// Locals declared once (`local x = e`) and never assigned again, with the
/// expression they hold.
struct Locals<'a> {
    settled: HashMap<&'a str, &'a Expr>,
}

impl<'a> Locals<'a> {
    fn of(block: &'a Block) -> Locals<'a> {
        let mut declared: HashMap<&'a str, Vec<Option<&'a Expr>>> = HashMap::new();
        let mut assigned = Vec::new();
        walk_stats(block, &mut |stat| match stat {
            Stat::Local { names, exprs, .. } => {
                for (i, name) in names.iter().enumerate() {
                    // A multi-value tail (`local a, b = f()`) is not settled.
                    let value = if i + 1 < exprs.len()
                        || (i + 1 == exprs.len() && names.len() == exprs.len())
                    {
                        exprs.get(i)
                    } else {
                        None
                    };
                    declared.entry(&name.text).or_default().push(value);
                }
            }
            Stat::LocalFunction { name, .. } => declared.entry(&name.text).or_default().push(None),
            Stat::Assign { targets, .. } => {
                for target in targets {
                    if let Expr::Name(name) = target {
                        assigned.push(name.text.as_str());
                    }
                }
            }
            Stat::NumericFor { var, .. } => declared.entry(&var.text).or_default().push(None),
            Stat::GenericFor { names, .. } => {
                for name in names {
                    declared.entry(&name.text).or_default().push(None);
                }
            }
            _ => {}
        });
        let settled = declared
            .into_iter()
            .filter(|(name, values)| values.len() == 1 && !assigned.contains(name))
            .filter_map(|(name, values)| values[0].map(|expr| (name, expr)))
            .collect();
        Locals { settled }
    }
}

/// Calls `visit` on every statement of `block` and the blocks inside it,
/// nested functions included (their locals shadow by name, which makes a
/// name declared twice: unsettled).
fn walk_stats<'a>(block: &'a Block, visit: &mut dyn FnMut(&'a Stat)) {
    for stat in &block.stats {
        visit(stat);
        for inner in stat_blocks(stat) {
            walk_stats(inner, visit);
        }
        if let Stat::LocalFunction { func, .. } | Stat::Function { func, .. } = stat {
            walk_stats(&func.block, visit);
        }
    }
}

/// The shapes `expr` can reply, when its text settles them.
fn shape_of(expr: &Expr, locals: &Locals, depth: usize) -> Option<Shapes> {
    // Locals that refer to locals: a few steps are plenty.
    if depth > 8 {
        return None;
    }
    Some(match expr {
        Expr::Nil(_) | Expr::False(_) => Shapes::NIL,
        Expr::True(_) | Expr::Number(..) => Shapes::INTEGER,
        Expr::String(..) => Shapes::STRING,
        Expr::Table(fields, _) => table_shape(fields),
        Expr::Paren(inner, _) => return shape_of(inner, locals, depth + 1),
        Expr::Name(name) => {
            return shape_of(locals.settled.get(name.text.as_str())?, locals, depth + 1);
        }
        Expr::Unary {
            op: UnOp::Len | UnOp::Neg,
            ..
        } => Shapes::INTEGER,
        Expr::Unary { op: UnOp::Not, .. } => Shapes::INTEGER.union(Shapes::NIL),
        Expr::Binary { op, .. } => match op {
            BinOp::Concat => Shapes::STRING,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                Shapes::INTEGER
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                Shapes::INTEGER.union(Shapes::NIL)
            }
            BinOp::And | BinOp::Or => return None,
        },
        Expr::Call { func, args, .. } => return call_shape(func, args),
        _ => return None,
    })
}

fn table_shape(fields: &[Field]) -> Shapes {
    match fields {
        [Field::Named(name, _)] if name.text == "ok" => Shapes::STATUS,
        [Field::Named(name, _)] if name.text == "err" => Shapes::NONE,
        [Field::Named(name, _)] if name.text == "double" => Shapes::DOUBLE,
        _ => Shapes::ARRAY,
    }
}

/// The shapes of a call's result: a Redis command or a library function
/// whose result is settled.
fn call_shape(func: &Expr, args: &[Expr]) -> Option<Shapes> {
    let path = match func {
        Expr::Name(name) => name.text.clone(),
        Expr::Index { obj, key, .. } => match (&**obj, &**key) {
            (Expr::Name(library), Expr::String(member, _)) => {
                format!("{}.{}", library.text, String::from_utf8_lossy(member))
            }
            _ => return None,
        },
        _ => return None,
    };
    match path.as_str() {
        "redis.call" | "redis.pcall" | "server.call" | "server.pcall" => {
            let Some(Expr::String(name, _)) = args.first() else {
                return None;
            };
            command_reply(&String::from_utf8_lossy(name), &args[1..])
        }
        "redis.status_reply" | "server.status_reply" => Some(Shapes::STATUS),
        "redis.error_reply" | "server.error_reply" | "error" => Some(Shapes::NONE),
        "tonumber" => Some(Shapes::INTEGER.union(Shapes::NIL)),
        "tostring" | "cjson.encode" | "cmsgpack.pack" | "redis.sha1hex" | "table.concat" => {
            Some(Shapes::STRING)
        }
        path if path.starts_with("string.")
            && !matches!(
                path,
                "string.find" | "string.match" | "string.byte" | "string.gmatch" | "string.len"
            ) =>
        {
            Some(Shapes::STRING)
        }
        "string.len" => Some(Shapes::INTEGER),
        _ => None,
    }
}

/// The RESP2 reply shapes of the commands whose reply the name (and, where
/// it matters, the number of arguments) settles, as Redis 7.0 and Valkey
/// 8.1 send them; `None` for any other.
pub(crate) fn command_reply(name: &str, args: &[Expr]) -> Option<Shapes> {
    let name = name.to_ascii_uppercase();
    let (int, string, status, array, nil) = (
        Shapes::INTEGER,
        Shapes::STRING,
        Shapes::STATUS,
        Shapes::ARRAY,
        Shapes::NIL,
    );
    Some(match name.as_str() {
        "INCR" | "INCRBY" | "DECR" | "DECRBY" | "DEL" | "UNLINK" | "EXISTS" | "HDEL"
        | "HEXISTS" | "HINCRBY" | "HLEN" | "HSETNX" | "HSTRLEN" | "HSET" | "LLEN" | "LPUSH"
        | "RPUSH" | "LPUSHX" | "RPUSHX" | "LREM" | "LINSERT" | "SADD" | "SREM" | "SCARD"
        | "SISMEMBER" | "SMOVE" | "SINTERSTORE" | "SUNIONSTORE" | "SDIFFSTORE" | "ZCARD"
        | "ZCOUNT" | "ZLEXCOUNT" | "ZREM" | "ZREMRANGEBYRANK" | "ZREMRANGEBYSCORE"
        | "ZREMRANGEBYLEX" | "ZUNIONSTORE" | "ZINTERSTORE" | "STRLEN" | "APPEND" | "SETNX"
        | "PERSIST" | "TTL" | "PTTL" | "EXPIRE" | "PEXPIRE" | "EXPIREAT" | "PEXPIREAT"
        | "PUBLISH" | "BITCOUNT" | "GETBIT" | "SETBIT" | "DBSIZE" | "XLEN" | "XDEL" | "XACK"
        | "PFADD" | "PFCOUNT" | "SETRANGE" | "ZADD"
            if name != "ZADD" || !has_word(args, "INCR") =>
        {
            int
        }
        "GET" | "GETDEL" | "HGET" | "LINDEX" | "GETSET" | "RPOPLPUSH" | "LMOVE" | "ZSCORE" => {
            string.union(nil)
        }
        "INCRBYFLOAT" | "HINCRBYFLOAT" | "GETRANGE" => string,
        "LPOP" | "RPOP" | "SPOP" | "SRANDMEMBER" if args.len() == 1 => string.union(nil),
        "ZRANK" | "ZREVRANK" if args.len() == 2 => int.union(nil),
        "HGETALL" | "HKEYS" | "HVALS" | "HMGET" | "MGET" | "LRANGE" | "SMEMBERS" | "SINTER"
        | "SUNION" | "SDIFF" | "ZRANGEBYSCORE" | "ZREVRANGEBYSCORE" | "ZRANGEBYLEX"
        | "ZREVRANGEBYLEX" | "ZRANGE" | "ZREVRANGE" | "KEYS" | "TIME" | "SCAN" | "HSCAN"
        | "SSCAN" | "ZSCAN" | "XRANGE" | "XREVRANGE" => array,
        "SET" if !has_word(args, "GET") => status.union(nil),
        "MSET" | "HMSET" | "LSET" | "LTRIM" | "RENAME" | "SETEX" | "PSETEX" | "PING" | "TYPE" => {
            status
        }
        _ => return None,
    })
}

/// Whether `args` holds the literal `word` (any case).
fn has_word(args: &[Expr], word: &str) -> bool {
    args.iter().any(
        |arg| matches!(arg, Expr::String(text, _) if text.eq_ignore_ascii_case(word.as_bytes())),
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_support::ONE_KEY_TWO_ARGS;
    use super::*;
    use crate::parser::parse;

    fn refused(source: &str, accepts: Shapes) -> Vec<String> {
        let declared = Declared {
            accepts,
            ..ONE_KEY_TWO_ARGS
        };
        let mut found = Vec::new();
        check(&parse(source).unwrap(), &declared, &mut found);
        found.into_iter().map(|d| d.message).collect()
    }

    const VEC: Shapes = Shapes::ARRAY.union(Shapes::STRING).union(Shapes::NIL);
    const INT: Shapes = Shapes::INTEGER
        .union(Shapes::STRING)
        .union(Shapes::STATUS)
        .union(Shapes::DOUBLE);

    #[test]
    fn a_type_that_holds_none_of_the_replies_is_refused() {
        let found = refused("return redis.call('INCR', KEYS[1])", VEC);
        assert_eq!(
            found,
            ["the script replies an integer, which the declared return type cannot hold"]
        );
        assert_eq!(
            refused("return redis.call('HGETALL', KEYS[1])", INT).len(),
            1
        );
        assert_eq!(
            refused("local t = {} table.insert(t, 1) return t", INT).len(),
            1
        );
        assert_eq!(
            refused("if ARGV[1] then return 1 end return #KEYS", VEC).len(),
            1
        );
        assert_eq!(refused("return {ok = 'DONE'}", VEC).len(), 1);
    }

    #[test]
    fn a_type_that_holds_one_of_them_or_unsettled_replies_pass() {
        // A string fits a Vec (one element), nil fits it too.
        assert!(refused("return redis.call('GET', KEYS[1])", VEC).is_empty());
        assert!(refused("if ARGV[1] then return 1 end return {}", INT).is_empty());
        // Not settled: a function's result, `and`/`or`, a local set twice.
        assert!(refused("local function f() return 1 end return f()", VEC).is_empty());
        assert!(refused("return ARGV[1] and 1 or 2", VEC).is_empty());
        assert!(refused("local x = 1 x = {} return x", VEC).is_empty());
        // Errors are not replies.
        assert!(
            refused(
                "if ARGV[1] then return redis.error_reply('E') end return {}",
                VEC
            )
            .is_empty()
        );
        // ZADD ... INCR replies a string; SET ... GET a string.
        assert!(refused("return redis.call('ZADD', KEYS[1], 'INCR', 1, 'm')", VEC).is_empty());
    }
}
