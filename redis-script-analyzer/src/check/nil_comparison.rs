//! The nil-comparison check: a command's reply compared with `nil`.
//!
//! Redis's nil reply (GET of a missing key, HGET of a missing field, LPOP
//! of an empty list) arrives in Lua as `false`, never as `nil`: so after
//! `local v = redis.call('GET', KEYS[1])`, `if v == nil then` never takes
//! its branch and `v ~= nil` always holds. The check flags such a
//! comparison, of a local holding the reply or of the call itself, for the
//! commands that can reply nil ([`commands::may_reply_nil`](crate::commands::may_reply_nil)).
//!
//! Not after `redis.setresp(3)`: replies then reach Lua in RESP3, where a
//! null is `nil`; a script that calls it anywhere is not checked.
//!
//! It is conservative: a local counts only when the script declares its
//! name once (no shadowing, no parameter or loop variable of that name) and
//! never assigns it again, so the compared value can only be the reply.

use std::collections::{HashMap, HashSet};

use super::nil_return::{nil_replying_command, stat_blocks};
use crate::diagnostic::{Diagnostic, Rule, Target};
use crate::syntax::tree::{BinOp, Block, Chunk, Expr, Field, FuncBody, Name, Span, Stat};

/// Reports every comparison with `nil` in `chunk` of a value that can only
/// be a command's reply; `whole` is the file `chunk` is part of (a
/// library, for a function's body), where a `redis.setresp(3)` may be.
pub(super) fn check(chunk: &Chunk, whole: &Chunk, diagnostics: &mut Vec<Diagnostic>) {
    let mut whole_walk = Walk::default();
    whole_walk.block(&whole.block);
    if whole_walk.resp3 {
        return;
    }
    let mut walk = Walk::default();
    walk.block(&chunk.block);
    for comparison in &walk.comparisons {
        let (subject, command) = match &comparison.subject {
            Subject::Call(command) => ("this compares the reply".to_owned(), command.clone()),
            Subject::Local(name) => {
                let Some(reply) = walk.replies.get(name.text.as_str()) else {
                    continue;
                };
                let settled = walk.declarations.get(name.text.as_str()) == Some(&1)
                    && !walk.assigned.contains(name.text.as_str())
                    && name.span.start > reply.declared_at;
                if !settled {
                    continue;
                }
                (
                    format!("`{}` holds the reply", name.text),
                    reply.command.clone(),
                )
            }
        };
        diagnostics.push(comparison.diagnostic(&subject, &command));
    }
}

/// A `x == nil` or `x ~= nil` (either way round) where `x` may be a reply.
struct Comparison<'a> {
    subject: Subject<'a>,
    /// `true` for `==`, `false` for `~=`.
    equal: bool,
    span: Span,
}

enum Subject<'a> {
    /// A local, a reply if it turns out settled.
    Local(&'a Name),
    /// `redis.call(...)` itself, of this command.
    Call(String),
}

impl Comparison<'_> {
    fn diagnostic(&self, subject: &str, command: &str) -> Diagnostic {
        let command = command.to_ascii_uppercase();
        // The test to write instead, on the local when there is one.
        let value = match &self.subject {
            Subject::Local(name) => name.text.as_str(),
            Subject::Call(_) => "reply",
        };
        let (verdict, fix) = if self.equal {
            (
                "never true",
                format!(
                    "test for the nil reply with `if not {value} then` (or `{value} == false`)"
                ),
            )
        } else {
            (
                "always true",
                format!("test for a value with `if {value} then` (or `{value} ~= false`)"),
            )
        };
        Diagnostic::error(
            Rule::NilComparison,
            Target::File,
            self.span,
            format!(
                "{subject} of `{command}`, whose nil arrives in Lua as `false`: \
                 the comparison with `nil` is {verdict}"
            ),
        )
        .with_note(fix)
    }
}

/// A local declared from a command that can reply nil.
struct Reply {
    command: String,
    /// The end of its declaration: comparisons before it are of another name.
    declared_at: usize,
}

/// Every name the script binds, assigns and compares with nil, the bodies of
/// its functions included.
#[derive(Default)]
struct Walk<'a> {
    declarations: HashMap<&'a str, usize>,
    assigned: HashSet<&'a str>,
    replies: HashMap<&'a str, Reply>,
    comparisons: Vec<Comparison<'a>>,
    /// Whether the script may switch to RESP3 (`redis.setresp` but for `2`).
    resp3: bool,
}

impl<'a> Walk<'a> {
    fn declare(&mut self, name: &'a Name) {
        *self.declarations.entry(&name.text).or_default() += 1;
    }

    fn block(&mut self, block: &'a Block) {
        for stat in &block.stats {
            self.stat(stat);
        }
        if let Some(ret) = &block.ret {
            self.exprs(&ret.exprs);
        }
    }

    fn func(&mut self, func: &'a FuncBody) {
        for param in &func.params {
            self.declare(param);
        }
        self.block(&func.block);
    }

    fn stat(&mut self, stat: &'a Stat) {
        match stat {
            Stat::Local { names, exprs, span } => {
                self.exprs(exprs);
                for (name, expr) in names.iter().zip(exprs) {
                    if let Expr::Call { func, args, .. } = expr
                        && let Some(command) = nil_replying_command(func, args)
                    {
                        let declared_at = span.end;
                        self.replies.insert(
                            &name.text,
                            Reply {
                                command,
                                declared_at,
                            },
                        );
                    }
                }
                for name in names {
                    self.declare(name);
                }
            }
            Stat::LocalFunction { name, func, .. } => {
                self.declare(name);
                self.func(func);
            }
            Stat::Function { name, func, .. } => {
                if let ([target], None) = (&name.path[..], &name.method) {
                    self.assigned.insert(&target.text);
                }
                self.func(func);
            }
            Stat::Assign { targets, exprs, .. } => {
                for target in targets {
                    match target {
                        Expr::Name(name) => {
                            self.assigned.insert(&name.text);
                        }
                        other => self.expr(other),
                    }
                }
                self.exprs(exprs);
            }
            Stat::Call(expr) | Stat::While { cond: expr, .. } | Stat::Repeat { cond: expr, .. } => {
                self.expr(expr)
            }
            Stat::If { arms, .. } => {
                for (cond, _) in arms {
                    self.expr(cond);
                }
            }
            Stat::NumericFor {
                var,
                start,
                stop,
                step,
                ..
            } => {
                self.declare(var);
                self.exprs([start, stop].into_iter().chain(step));
            }
            Stat::GenericFor { names, exprs, .. } => {
                for name in names {
                    self.declare(name);
                }
                self.exprs(exprs);
            }
            Stat::Do(_) | Stat::Break(_) => {}
        }
        for block in stat_blocks(stat) {
            self.block(block);
        }
    }

    fn exprs(&mut self, exprs: impl IntoIterator<Item = &'a Expr>) {
        for expr in exprs {
            self.expr(expr);
        }
    }

    fn expr(&mut self, expr: &'a Expr) {
        // Long chains (`a .. b .. c ...`) nest deep on the left: a work list
        // instead of recursion on every operand.
        let mut pending = vec![expr];
        while let Some(expr) = pending.pop() {
            match expr {
                Expr::Binary { op, lhs, rhs, span } => {
                    if matches!(op, BinOp::Eq | BinOp::Ne) {
                        self.compared(*op == BinOp::Eq, lhs, rhs, *span);
                    }
                    pending.push(lhs);
                    pending.push(rhs);
                }
                Expr::Unary { expr, .. } | Expr::Paren(expr, _) => pending.push(expr),
                Expr::Function(func) => self.func(func),
                Expr::Table(fields, _) => {
                    for field in fields {
                        match field {
                            Field::Positional(value) | Field::Named(_, value) => {
                                pending.push(value)
                            }
                            Field::Keyed(key, value) => {
                                pending.push(key);
                                pending.push(value);
                            }
                        }
                    }
                }
                // `redis.setresp` not called directly (`pcall(redis.setresp,
                // 3)`, an alias): the script may switch to RESP3.
                Expr::Index { .. } if is_setresp(expr) => {
                    self.resp3 = true;
                }
                Expr::Index { obj, key, .. } => {
                    pending.push(obj);
                    pending.push(key);
                }
                Expr::Call { func, args, .. } => {
                    if is_setresp(func) {
                        // A direct call says which protocol: only 2 keeps nil false.
                        if !matches!(args[..], [Expr::Number(version, _)] if version == 2.0) {
                            self.resp3 = true;
                        }
                    } else {
                        pending.push(func);
                    }
                    pending.extend(args);
                }
                Expr::Method { obj, args, .. } => {
                    pending.push(obj);
                    pending.extend(args);
                }
                Expr::Nil(_)
                | Expr::True(_)
                | Expr::False(_)
                | Expr::Number(..)
                | Expr::String(..)
                | Expr::Vararg(_)
                | Expr::Name(_) => {}
            }
        }
    }

    /// Notes `lhs == rhs` (or `~=`) if one side is `nil`.
    fn compared(&mut self, equal: bool, lhs: &'a Expr, rhs: &'a Expr, span: Span) {
        let other = match (unparen(lhs), unparen(rhs)) {
            (Expr::Nil(_), other) | (other, Expr::Nil(_)) => other,
            _ => return,
        };
        let subject = match other {
            Expr::Name(name) => Subject::Local(name),
            Expr::Call { func, args, .. } => match nil_replying_command(func, args) {
                Some(command) => Subject::Call(command),
                None => return,
            },
            _ => return,
        };
        self.comparisons.push(Comparison {
            subject,
            equal,
            span,
        });
    }
}

/// `redis.setresp` (or Valkey's `server.setresp`).
fn is_setresp(func: &Expr) -> bool {
    matches!(func, Expr::Index { obj, key, .. }
        if matches!(&**obj, Expr::Name(library) if library.text == "redis" || library.text == "server")
            && matches!(&**key, Expr::String(member, _) if member == b"setresp"))
}

fn unparen(mut expr: &Expr) -> &Expr {
    while let Expr::Paren(inner, _) = expr {
        expr = inner;
    }
    expr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parser::parse;

    fn messages(source: &str) -> Vec<String> {
        let chunk = parse(source).unwrap_or_else(|error| panic!("{}", error.message));
        let mut diagnostics = Vec::new();
        check(&chunk, &chunk, &mut diagnostics);
        diagnostics.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn a_reply_compared_with_nil_is_flagged() {
        let found = messages(
            "local v = redis.call('GET', KEYS[1])\nif v == nil then return 0 end\nreturn v",
        );
        assert_eq!(
            found,
            [
                "`v` holds the reply of `GET`, whose nil arrives in Lua as `false`: \
              the comparison with `nil` is never true"
            ]
        );
        let found = messages("local v = redis.call('HGET', KEYS[1], 'f')\nreturn nil ~= (v)");
        assert_eq!(found.len(), 1);
        assert!(found[0].ends_with("is always true"), "{}", found[0]);
        let found = messages("if redis.call('LPOP', KEYS[1]) == nil then return 1 end");
        assert!(
            found[0].starts_with("this compares the reply of `LPOP`"),
            "{found:?}"
        );
        // Inside a function, in a nested condition.
        let found = messages(
            "local v = redis.call('GET', KEYS[1])\n\
             local function f() return v == nil and 1 or 2 end\nreturn f()",
        );
        assert_eq!(found.len(), 1);
        // RESP2 said out loud keeps nil `false`.
        let found = messages(
            "redis.setresp(2) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
        );
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn values_that_may_not_be_the_reply_are_not() {
        let clean = [
            // No nil reply.
            "local v = redis.call('INCR', KEYS[1]) if v == nil then return 0 end return v",
            // SET replies nil only with NX, XX or GET.
            "local v = redis.call('SET', KEYS[1], 'x') if v == nil then return 0 end return 1",
            // A table lookup is nil for a missing key.
            "local t = {} local v = t[ARGV[1]] if v == nil then return 0 end return v",
            // Assigned again.
            "local v = redis.call('GET', KEYS[1]) v = tonumber(v) if v == nil then return 0 end return v",
            // Shadowed by a parameter.
            "local v = redis.call('GET', KEYS[1]) local function f(v) return v == nil end return f(v)",
            // Shadowed by a second local.
            "local v = redis.call('GET', KEYS[1]) do local v = ARGV[1] if v == nil then return 0 end end return v",
            // Compared with false, as it should be.
            "local v = redis.call('GET', KEYS[1]) if v == false then return 0 end return v",
            // In RESP3 (after `redis.setresp(3)`) a null reply is nil.
            "redis.setresp(3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            // ... also when setresp is not called directly.
            "pcall(redis.setresp, 3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            "local resp = redis.setresp resp(3) local v = redis.call('GET', KEYS[1]) if v == nil then return 0 end return v",
            // A name compared before the declaration is another variable.
            "if x == nil then return 0 end local x = redis.call('GET', KEYS[1]) return x",
        ];
        for source in clean {
            assert_eq!(messages(source), Vec::<String>::new(), "{source}");
        }
    }
}
