//! `wrong_type`: a key used as two types in a row, so that the second
//! call fails with WRONGTYPE on every run that reaches it.
//!
//! Within one function's statements, in order, a `redis.call` that always
//! leaves its first key holding a type (`SADD KEYS[1] m`: a set, whether
//! the key was missing or a set; the servers' own answers,
//! [`crate::key_types`]) is followed to a later call on the same key (the
//! same `KEYS[n]`, or the same literal name) that fails with WRONGTYPE on
//! that type (`GET KEYS[1]`). Anything between that may change the key
//! forgets what it holds: a command on it that does not keep its type
//! (`DEL`, `TYPE`, `EXISTS`, `RENAME`, `SREM`, which may empty it), a
//! command whose key the model cannot name, a call of the script's own
//! functions; and a call that runs only sometimes (in a branch, a loop,
//! after `and`/`or`) makes nothing certain but still forgets. A branch or
//! a loop starts from what holds before it.

use std::collections::HashMap;

use super::command_table::key_positions;
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::commands;
use crate::grammar::{self, Arg, Kind};
use crate::key_types::{self, KeyTypes};
use crate::rule::Rule;
use crate::semantic::command::CommandCall;
use crate::semantic::value::{Builtin, Value};
use crate::semantic::Model;
use crate::servers::Servers;
use crate::syntax::tree::{BinOp, Block, Expr, Field, Span, Stat};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

/// A key the model can name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum KeyName<'t> {
    /// `KEYS[n]`.
    Keys(usize),
    /// A literal name.
    Literal(&'t [u8]),
}

/// What a key holds for certain at a point, and the call that made it so.
#[derive(Debug, Clone)]
struct Holds {
    key_type: KeyTypes,
    by: Span,
    command: String,
}

type State<'t> = HashMap<KeyName<'t>, Holds>;

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let model = context.model;
    let commands: HashMap<usize, CommandCall> = model
        .commands()
        .map(|call| (model.calls[call.call].span.start, call))
        .collect();
    let walker = Walker {
        context,
        commands,
        targets: context.declared.servers,
    };
    for function in &model.functions {
        let mut state = State::new();
        walker.block(function.block, &mut state, diagnostics);
    }
}

struct Walker<'c, 'm, 't> {
    context: &'c Context<'m, 't>,
    /// The command calls with a literal name, by where they start.
    commands: HashMap<usize, CommandCall<'t>>,
    targets: Servers,
}

impl<'t> Walker<'_, '_, 't> {
    fn model(&self) -> &Model<'t> {
        self.context.model
    }

    fn block(&self, block: &'t Block, state: &mut State<'t>, out: &mut Vec<Diagnostic>) {
        for stat in &block.stats {
            self.statement(stat, state, out);
        }
        if let Some(ret) = &block.ret {
            for expr in &ret.exprs {
                self.expression(expr, state, out);
            }
        }
    }

    fn statement(&self, stat: &'t Stat, state: &mut State<'t>, out: &mut Vec<Diagnostic>) {
        match stat {
            Stat::Local { exprs, .. } => {
                for expr in exprs {
                    self.expression(expr, state, out);
                }
            }
            Stat::Assign { targets, exprs, .. } => {
                for expr in exprs.iter().chain(targets) {
                    self.expression(expr, state, out);
                }
            }
            Stat::Call(expr) => self.expression(expr, state, out),
            Stat::Do(block) => self.block(block, state, out),
            Stat::If {
                arms, otherwise, ..
            } => {
                let mut first = true;
                for (cond, block) in arms {
                    if first {
                        self.expression(cond, state, out);
                        first = false;
                    } else {
                        self.sometimes(cond, state);
                    }
                    self.branch(block, state, out);
                }
                if let Some(block) = otherwise {
                    self.branch(block, state, out);
                }
            }
            Stat::While { cond, block, .. } => {
                self.sometimes(cond, state);
                self.branch(block, state, out);
            }
            Stat::Repeat { block, cond, .. } => {
                self.branch(block, state, out);
                self.sometimes(cond, state);
            }
            Stat::NumericFor {
                start, stop, step, block, ..
            } => {
                for expr in [Some(start), Some(stop), step.as_ref()].into_iter().flatten() {
                    self.expression(expr, state, out);
                }
                self.branch(block, state, out);
            }
            Stat::GenericFor { exprs, block, .. } => {
                for expr in exprs {
                    self.expression(expr, state, out);
                }
                self.branch(block, state, out);
            }
            // A function's body runs when it is called: walked on its own.
            Stat::LocalFunction { .. } | Stat::Function { .. } | Stat::Break(_) => {}
        }
    }

    /// A block that may run (once, or again): judged from what holds
    /// before it; afterwards, what it may have changed is forgotten: a key
    /// it leaves holding anything else (or nothing certain).
    fn branch(&self, block: &'t Block, state: &mut State<'t>, out: &mut Vec<Diagnostic>) {
        let mut inside = state.clone();
        self.block(block, &mut inside, out);
        state.retain(|key, holds| {
            inside
                .get(key)
                .is_some_and(|after| after.key_type == holds.key_type)
        });
    }

    /// An expression that may not run: what its calls may change is forgotten.
    fn sometimes(&self, expr: &'t Expr, state: &mut State<'t>) {
        for (span, _) in expr_calls(expr) {
            self.forget(span, state);
        }
    }

    /// The calls of `expr` in the order they run: those that always run
    /// judged and followed, the others (after `and`, `or`) forgetting.
    fn expression(&self, expr: &'t Expr, state: &mut State<'t>, out: &mut Vec<Diagnostic>) {
        for (span, always) in expr_calls(expr) {
            if always {
                self.call(span, state, out);
            } else {
                self.forget(span, state);
            }
        }
    }

    /// The command call at `span`, if the walk follows it: its first key's
    /// name and the targets' facts of it.
    fn command(&self, span: Span) -> Option<&CommandCall<'t>> {
        let call = self.commands.get(&span.start)?;
        (self.model().calls[call.call].span == span).then_some(call)
    }

    /// A call that runs whenever its statement does.
    fn call(&self, span: Span, state: &mut State<'t>, out: &mut Vec<Diagnostic>) {
        let Some(call) = self.command(span) else {
            self.forget(span, state);
            return;
        };
        let facts = self.facts(&call.name);
        let first = self.first_key(call);
        if let (Some((_, wrongtype_on)), Some(Some(key))) = (facts, &first)
            && let Some(holds) = state.get(key)
            && wrongtype_on & holds.key_type != 0
        {
            out.push(self.finding(call, key, holds));
            // Reported once: after the failure, nothing more is certain.
            state.remove(key);
            return;
        }
        self.forget(span, state);
        if let (Some((creates, _)), Some(Some(key))) = (facts, first)
            && creates != 0
            && self.plain_call(call)
            && self.always_creates(call)
        {
            state.insert(
                key,
                Holds {
                    key_type: creates,
                    by: call.span,
                    command: call.name.clone(),
                },
            );
        }
    }

    /// Forgets what the call at `span` may change. A read-only command on
    /// a type of value (SCARD, GET) changes no key and keeps everything; a
    /// command on any key (TYPE, EXISTS) may guard what follows, and
    /// forgets, as a write does. Any other command forgets
    /// everything: two names may be one key (the caller may pass one key
    /// as KEYS[1] and KEYS[2]), and a command without a key (FLUSHDB,
    /// SELECT) changes them all. So does a call that may run script code:
    /// the script's functions, a method, a callback given to a library
    /// function (`string.gsub(s, p, f)`). The library's own functions
    /// (`tonumber`, `string.sub`) keep everything.
    fn forget(&self, span: Span, state: &mut State<'t>) {
        if state.is_empty() {
            return;
        }
        let Some(index) = self.model().call_at(span) else {
            // A method call (`obj:m()`): anything.
            state.clear();
            return;
        };
        if let Some(call) = self.command(span) {
            if !(self.read_only(call) && self.facts(&call.name).is_some()) {
                state.clear();
            }
            return;
        }
        let site = &self.model().calls[index];
        let safe = match self.model().value(site.func) {
            Value::Builtin(Builtin::Call | Builtin::PCall | Builtin::Pcall) => false,
            Value::Builtin(_) => !site.args.iter().any(|arg| {
                matches!(arg, Expr::Function(_))
                    || self
                        .model()
                        .value(arg)
                        .alternatives()
                        .iter()
                        .any(|value| matches!(value, Value::Function(_) | Value::Unknown))
            }),
            _ => false,
        };
        if !safe {
            state.clear();
        }
    }

    /// Whether every target flags the command `call` runs `readonly`.
    fn read_only(&self, call: &CommandCall<'t>) -> bool {
        let sub = match call.args.first() {
            Some(Expr::String(sub, _)) => Some(String::from_utf8_lossy(sub).into_owned()),
            _ => None,
        };
        self.targets.iter().all(|server| {
            commands::resolve(server, &call.name, sub.as_deref())
                .is_some_and(|command| command.flags.contains(commands::flag::READONLY))
        })
    }

    /// The name of `call`'s first key: `None` for a command with no key;
    /// `Some(None)` for a key the model cannot name.
    fn first_key(&self, call: &CommandCall<'t>) -> Option<Option<KeyName<'t>>> {
        let positions = key_positions(call, self.targets)?;
        let first = *positions.positions.first()?;
        Some(call.args.get(first).and_then(|arg| self.key_name(arg)))
    }

    fn key_name(&self, arg: &'t Expr) -> Option<KeyName<'t>> {
        match self.model().value(arg) {
            Value::Key(Some(index)) => Some(KeyName::Keys(index)),
            Value::Text(text) => Some(KeyName::Literal(text)),
            _ => None,
        }
    }

    /// What every target says of `name`: the type it leaves (0 unless all
    /// agree) and the types it fails on (those all fail on).
    fn facts(&self, name: &str) -> Option<(KeyTypes, KeyTypes)> {
        let mut creates = None;
        let mut wrongtype_on = KeyTypes::MAX;
        for server in self.targets.iter() {
            let facts = key_types::type_use(server, name)?;
            creates = match creates {
                None => Some(facts.creates),
                Some(seen) if seen == facts.creates => Some(seen),
                Some(_) => Some(0),
            };
            wrongtype_on &= facts.wrongtype_on;
        }
        Some((creates?, wrongtype_on))
    }

    /// Whether the call is `redis.call` (directly or through an alias):
    /// one that fails stops the script, so after it the key holds what it
    /// made.
    fn plain_call(&self, call: &CommandCall<'t>) -> bool {
        let site = &self.model().calls[call.call];
        self.model().value(site.func) == Value::Builtin(Builtin::Call)
    }

    /// Whether the call is as its command's smallest call, which the facts
    /// are of: values that make something (not empty, where that matters),
    /// no optional word of the grammar among its arguments, and
    /// none that may be one (a value the text does not settle), when the
    /// command has optional words (`ZADD`'s `XX` makes nothing).
    fn always_creates(&self, call: &CommandCall<'t>) -> bool {
        // A command that makes nothing of empty values (SETRANGE) makes
        // its type only of values the text settles, none of them empty.
        let needs_values = self
            .targets
            .iter()
            .any(|server| key_types::type_use(server, &call.name).is_some_and(|facts| facts.needs_values));
        if needs_values
            && !call.args.iter().all(|arg| match self.model().value(arg) {
                Value::Text(text) => !text.is_empty(),
                Value::Number(Some(_)) | Value::Key(_) => true,
                _ => false,
            })
        {
            return false;
        }
        let mut optional = Vec::new();
        for server in self.targets.iter() {
            let Some(grammar) = grammar::grammar(server, &call.name) else {
                return false;
            };
            optional_tokens(grammar.args, false, &mut optional);
        }
        if optional.is_empty() {
            return true;
        }
        call.args.iter().all(|arg| match self.model().value(arg) {
            Value::Text(text) => !optional
                .iter()
                .any(|token| text.eq_ignore_ascii_case(token.as_bytes())),
            Value::Number(Some(_)) | Value::Key(_) => true,
            _ => false,
        })
    }

    fn finding(&self, call: &CommandCall<'t>, key: &KeyName<'t>, holds: &Holds) -> Diagnostic {
        let key = match key {
            KeyName::Keys(index) => format!("KEYS[{index}]"),
            KeyName::Literal(text) => format!("`{}`", String::from_utf8_lossy(text)),
        };
        let line = line_of(self.context.source, holds.by.start);
        Diagnostic::error(
            Rule::WrongType,
            Target::File,
            call.span,
            format!(
                "`{}` fails here with WRONGTYPE: {key} holds a {}, made by `{}` on line {line}",
                call.name.to_ascii_uppercase(),
                key_types::name(holds.key_type),
                holds.command.to_ascii_uppercase()
            ),
        )
        .with_note(
            "use another key for the other type, or delete the key (DEL) before it changes type"
                .to_owned(),
        )
    }
}

/// The 1-based line of byte `offset`.
fn line_of(source: &[u8], offset: usize) -> usize {
    source[..offset.min(source.len())]
        .iter()
        .filter(|&&byte| byte == b'\n')
        .count()
        + 1
}

/// The tokens of `args` that a call may leave out (inside an optional
/// argument, at any depth).
fn optional_tokens(args: &'static [Arg], inside: bool, out: &mut Vec<&'static str>) {
    for arg in args {
        let optional = inside || arg.optional();
        if optional && !arg.token.is_empty() {
            out.push(arg.token);
        }
        if matches!(arg.kind, Kind::OneOf | Kind::Block) {
            optional_tokens(arg.args, optional, out);
        }
    }
}

/// The calls of `expr` (not inside a function literal) in the order they
/// run (a call's arguments before it), each with whether it runs whenever
/// `expr` is evaluated (not after an `and` or `or`). Walked with a stack
/// of its own: a chain of operators is as deep as it is long.
fn expr_calls(expr: &Expr) -> Vec<(Span, bool)> {
    let mut calls = Vec::new();
    // (expression, whether it always runs, whether its call is to be
    // recorded now, its children having been walked)
    let mut stack: Vec<(&Expr, bool, bool)> = vec![(expr, true, false)];
    while let Some((expr, runs, done)) = stack.pop() {
        if done {
            calls.push((expr.span(), runs));
            continue;
        }
        match expr {
            Expr::Call { func, args, .. } => {
                stack.push((expr, runs, true));
                for arg in args.iter().rev() {
                    stack.push((arg, runs, false));
                }
                stack.push((func, runs, false));
            }
            Expr::Method { obj, args, .. } => {
                stack.push((expr, runs, true));
                for arg in args.iter().rev() {
                    stack.push((arg, runs, false));
                }
                stack.push((obj, runs, false));
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                let rhs_runs = runs && !matches!(op, BinOp::And | BinOp::Or);
                stack.push((rhs, rhs_runs, false));
                stack.push((lhs, runs, false));
            }
            Expr::Unary { expr: inner, .. } | Expr::Paren(inner, _) => {
                stack.push((inner, runs, false));
            }
            Expr::Index { obj, key, .. } => {
                stack.push((key, runs, false));
                stack.push((obj, runs, false));
            }
            Expr::Table(fields, _) => {
                for field in fields.iter().rev() {
                    match field {
                        Field::Positional(value) | Field::Named(_, value) => {
                            stack.push((value, runs, false));
                        }
                        Field::Keyed(key, value) => {
                            stack.push((value, runs, false));
                            stack.push((key, runs, false));
                        }
                    }
                }
            }
            Expr::Function(_)
            | Expr::Nil(_)
            | Expr::True(_)
            | Expr::False(_)
            | Expr::Number(..)
            | Expr::String(..)
            | Expr::Vararg(_)
            | Expr::Name(_) => {}
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, run_rule};

    fn found(script: &str) -> Vec<String> {
        run_rule(script, &ONE_KEY_TWO_ARGS, check)
            .into_iter()
            .map(|finding| finding.message)
            .collect()
    }

    #[test]
    fn reads_in_between_keep_its_type() {
        let script = "redis.call('SADD', KEYS[1], 'm') local n = redis.call('SCARD', KEYS[1]) \
                      local t = tonumber(ARGV[1]) return redis.call('GET', KEYS[1])";
        assert_eq!(found(script).len(), 1, "{script}");
    }

    #[test]
    fn a_key_made_a_set_then_read_as_a_string_fails() {
        assert_eq!(
            found("redis.call('SADD', KEYS[1], 'm')\nreturn redis.call('GET', KEYS[1])"),
            ["`GET` fails here with WRONGTYPE: KEYS[1] holds a set, made by `SADD` on line 1"]
        );
        let local = "local k = KEYS[1]\nlocal n = redis.call('LPUSH', k, ARGV[1])\n\
                     if n > 0 then return redis.call('HGET', k, 'f') end";
        assert_eq!(found(local).len(), 1, "{local}");
    }

    #[test]
    fn what_may_change_the_key_in_between_forgets_its_type() {
        for script in [
            // Another name may be the same key; a keyless command changes all.
            "redis.call('SADD', KEYS[1], 'm') redis.call('DEL', KEYS[2]) return redis.call('GET', KEYS[1])",
            "redis.call('SADD', KEYS[1], 'm') redis.call('FLUSHDB') return redis.call('GET', KEYS[1])",
            // A method, or a callback a library function runs.
            "local M = {} function M:reset() redis.call('DEL', KEYS[1]) end \
             redis.call('SADD', KEYS[1], 'm') M:reset() return redis.call('GET', KEYS[1])",
            "redis.call('SADD', KEYS[1], 'm') string.gsub('x', 'x', function() redis.call('DEL', KEYS[1]) end) \
             return redis.call('GET', KEYS[1])",
            // In the order it runs: the DEL under `and` comes first.
            "redis.call('SADD', KEYS[1], 'm') return {ARGV[1] and redis.call('DEL', KEYS[1]), redis.call('GET', KEYS[1])}",
            "redis.call('SADD', KEYS[1], 'm') redis.call('DEL', KEYS[1]) return redis.call('GET', KEYS[1])",
            "redis.call('SADD', KEYS[1], 'm') redis.call('SREM', KEYS[1], 'm') return redis.call('GET', KEYS[1])",
            "redis.call('SADD', KEYS[1], 'm') if redis.call('TYPE', KEYS[1]).ok == 'string' then return redis.call('GET', KEYS[1]) end",
            "local function f() redis.call('DEL', KEYS[1]) end redis.call('SADD', KEYS[1], 'm') f() return redis.call('GET', KEYS[1])",
            "redis.call('SADD', KEYS[1], 'm') if ARGV[1] then redis.call('DEL', KEYS[1]) end return redis.call('GET', KEYS[1])",
        ] {
            assert_eq!(found(script), Vec::<String>::new(), "{script}");
        }
    }

    #[test]
    fn only_a_call_that_always_makes_the_type_settles_it() {
        for script in [
            // Either branch, not both.
            "if ARGV[1] then redis.call('SADD', KEYS[1], 'm') else return redis.call('GET', KEYS[1]) end",
            // Made only sometimes.
            "if ARGV[1] then redis.call('SADD', KEYS[1], 'm') end return redis.call('GET', KEYS[1])",
            "local ok = ARGV[1] and redis.call('SADD', KEYS[1], 'm') return redis.call('GET', KEYS[1])",
            // pcall: a failed SADD leaves the key as it was.
            "redis.pcall('SADD', KEYS[1], 'm') return redis.call('GET', KEYS[1])",
            // SETNX and MSETNX leave another type as it was; SETRANGE makes
            // nothing of an empty value.
            "redis.call('SETNX', KEYS[1], 'x') return redis.call('SADD', KEYS[1], 'm')",
            "redis.call('SETRANGE', KEYS[1], 0, ARGV[1]) return redis.call('HSET', KEYS[1], 'f', 'v')",
            // LPUSHX makes nothing of a missing key; ZADD XX neither.
            "redis.call('LPUSHX', KEYS[1], 'm') return redis.call('GET', KEYS[1])",
            "redis.call('ZADD', KEYS[1], 'XX', 1, 'm') return redis.call('GET', KEYS[1])",
            "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) return redis.call('GET', KEYS[1])",
            // SET makes a string of anything: GET reads it.
            "redis.call('SADD', KEYS[1], 'm') redis.call('SET', KEYS[1], 'v') return redis.call('GET', KEYS[1])",
            // Another key.
            "redis.call('SADD', KEYS[1], 'm') return redis.call('GET', KEYS[2])",
        ] {
            assert_eq!(found(script), Vec::<String>::new(), "{script}");
        }
        let loop_body = "for i = 1, 3 do redis.call('SADD', KEYS[1], i) end return redis.call('GET', KEYS[1])";
        assert_eq!(found(loop_body), Vec::<String>::new(), "{loop_body}");
    }
}
