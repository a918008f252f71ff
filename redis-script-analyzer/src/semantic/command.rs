//! The command calls of a script: `redis.call('GET', k)`, through an alias
//! (`local rcall = redis.call`), or under `pcall(redis.call, ...)`.

use super::value::{Builtin, Value};
use super::{FunctionId, Model};
use crate::syntax::tree::{Expr, Span, Stat};

/// A call of `redis.call` or `redis.pcall` with a literal command name.
#[derive(Debug, Clone)]
pub(crate) struct CommandCall<'t> {
    /// Its index in [`Model::calls`].
    pub(crate) call: usize,
    /// The command name, lower case.
    pub(crate) name: String,
    /// Where the name's literal is.
    pub(crate) span: Span,
    /// The command's arguments after its name.
    pub(crate) args: &'t [Expr],
}

/// Whether `func` is written as a function named `setresp`
/// (`x.setresp`, `x['setresp']`, `setresp`).
fn names_setresp(func: &Expr) -> bool {
    match func {
        Expr::Name(name) => name.text == "setresp",
        Expr::Index { key, .. } => matches!(&**key, Expr::String(text, _) if text == b"setresp"),
        _ => false,
    }
}

impl<'t> Model<'t> {
    /// The command call `self.calls[call]` makes, if it calls one by a literal name.
    pub(crate) fn command(&self, call: usize) -> Option<CommandCall<'t>> {
        let site = &self.calls[call];
        let words = match self.value(site.func) {
            Value::Builtin(Builtin::Call | Builtin::PCall) => site.args,
            Value::Builtin(Builtin::Pcall) => {
                let (func, rest) = site.args.split_first()?;
                match self.value(func) {
                    Value::Builtin(Builtin::Call | Builtin::PCall) => rest,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let (Expr::String(name, span), args) = words.split_first()? else {
            return None;
        };
        Some(CommandCall {
            call,
            name: String::from_utf8_lossy(name).to_ascii_lowercase(),
            span: *span,
            args,
        })
    }

    /// Every command call with a literal name, in the order of the text.
    pub(crate) fn commands(&self) -> impl Iterator<Item = CommandCall<'t>> + '_ {
        (0..self.calls.len()).filter_map(|call| self.command(call))
    }

    /// Whether the script may switch its replies to RESP3, where a null
    /// reaches Lua as `nil`: `redis.setresp` called with anything but a
    /// literal 2, directly, through an alias or under `pcall`; or anything
    /// called `setresp` (`reddis.setresp(3)`, misspelt, still says what the
    /// script means, and a fix of another finding must not assume RESP2).
    pub(crate) fn may_use_resp3(&self) -> bool {
        *self.memo.resp3.get_or_init(|| self.sets_resp3())
    }

    /// Whether `function` switches its replies to RESP3 before anything it
    /// replies is made: `redis.setresp(3)` is a statement of its own block
    /// (not under a condition or a loop) that comes before every `return`
    /// and every other call of the function (a reply fetched before the
    /// switch keeps its RESP2 shape), and the only switch of the file.
    pub(crate) fn switches_to_resp3_first(&self, function: FunctionId) -> bool {
        let switches = self
            .calls
            .iter()
            .filter(|site| {
                self.value(site.func) == Value::Builtin(Builtin::SetResp)
                    || names_setresp(site.func)
            })
            .count();
        if switches != 1 {
            return false;
        }
        let body = &self.functions[function];
        let Some(switch) = body.block.stats.iter().find_map(|stat| match stat {
            Stat::Call(Expr::Call { func, args, span })
                if self.value(func) == Value::Builtin(Builtin::SetResp)
                    && matches!(args.as_slice(), [Expr::Number(version, _)] if *version == 3.0) =>
            {
                Some(*span)
            }
            _ => None,
        }) else {
            return false;
        };
        let before = |start: usize| start < switch.end;
        !body.return_spans.iter().any(|span| before(span.start))
            && !self.calls[body.extent.calls.clone()]
                .iter()
                .any(|site| site.span != switch && before(site.span.start))
    }

    fn sets_resp3(&self) -> bool {
        self.calls.iter().any(|site| {
            let (callee, args) = match self.value(site.func) {
                Value::Builtin(Builtin::Pcall) => match site.args.split_first() {
                    Some((func, rest)) => (self.value(func), rest),
                    None => return false,
                },
                callee => (callee, site.args),
            };
            (callee == Value::Builtin(Builtin::SetResp) || names_setresp(site.func))
                && !matches!(args.first(), Some(Expr::Number(version, _)) if *version == 2.0)
        })
    }
}
