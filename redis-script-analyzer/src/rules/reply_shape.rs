//! `reply_shape`: a reply whose shape the declared type cannot hold.
//!
//! The replies a script can send ([`Reply`]: an integer, a string or status
//! with its text, an array with its elements, nil; RESP3's map, set,
//! double, big number and verbatim string), from what it returns, against
//! what the declared return type can take ([`reply_type::fits`]), as a
//! client on RESP2 and one on RESP3 receive them ([`Reply::received`]).
//!
//! A script's replies are known only where every `return` of its main
//! function settles them: a literal (`1`, `'x'` with its text, `nil`,
//! `true` replies 1, `false` nil), a table (`{ok = ...}` a status, `{err =
//! ...}` an error, `{double = ...}`, `{map = ...}`, `{set = ...}`,
//! `{big_number = ...}` and `{verbatim_string = ...}` RESP3's double, map,
//! set, big number and verbatim string, which a RESP2 connection receives
//! as a string or an array; any other an array, its leading elements up to
//! the first that may be nil), a Redis command returned directly, with the
//! replies its reply schema gives and its arguments pick
//! ([`replies::call_replies`]: `redis.call('INCR', ...)` an integer,
//! `HGETALL` an array, `GET` a string or nil, `SET` without options the
//! status `OK`, `XADD` a stream ID, `TIME` an array of 2 elements; a
//! command without a schema any reply), `redis.status_reply`, `tonumber`
//! (an integer or nil), `tostring`, `cjson.encode`, `string.*` and `..`
//! (strings), `#t` and arithmetic (integers), comparisons and `not` (1 or
//! nil), or a local whose one declaration settles it and that is never
//! assigned again (a table's elements are not taken from its declaration:
//! the script may fill it). Anything else (a function's result, `a and b`,
//! a local assigned twice) may be any reply, and the check says nothing.
//! Errors (`error()`, `redis.error_reply`, `{err = ...}`) are not replies a
//! type must hold.
//!
//! After `redis.setresp(3)` ([`Mode`]), a command's reply comes to the
//! script as RESP3 has it (HGETALL a map, ZSCORE a double; a reply only
//! seen on RESP2 is anything), and `false` is a boolean: a binding reads it
//! as nil on RESP3, and RESP2 sends it as the integer 0. A script that may
//! switch, but not first thing (before every `return` and every other
//! call, and only once), replies either way.
//!
//! The check refuses a type that takes none of the replies on a protocol,
//! e.g. `Vec<String>` for a script that always returns `redis.call('INCR',
//! ...)`, or `i64` for one that returns `"locked"` or `"free"`; and, on
//! RESP3 alone, `Vec<String>` for `{map = ...}` (redis-rs reads a map into
//! a map or a sequence of pairs, maps or values, never of strings).

use crate::reply::{self, Elements, Protocol, Reply};
use super::{Context, Judges, Meta};
use crate::reply_type::ReplyKind;
use crate::diagnostic::{Diagnostic, Target};
use crate::rule::{Checker, Rule};
use crate::replies::{self, Length, kind};
use crate::reply_type;
use crate::semantic::flow::{fall_through_span, terminates};
use crate::semantic::value::is_multi;
use crate::semantic::{BindingId, BindingKind, FieldKey, FunctionId, Given, Model};
use crate::syntax::tree::{BinOp, Expr, Field, UnOp};

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::Code,
};

/// Refuses the declared reply type if it takes none of the replies the
/// script (in a library, the callback checked) can send, as a client on
/// RESP2 or on RESP3 receives them.
fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let (model, declared) = (context.model, context.declared);
    let function = context.callback.unwrap_or(0);
    let body = &model.functions[function];
    let mode = Mode::of(model, function);
    let mut replies = Vec::new();
    for exprs in &body.returns {
        match exprs.first() {
            Some(expr) => replies.extend(replies_of(expr, model, mode, 0)),
            None => replies.push(Reply::Nil),
        }
    }
    if !terminates(body.block) {
        replies.push(Reply::Nil);
    }
    // Nil alone into a type that cannot be nil is the nil-reply check's to
    // report.
    let nil_reply_reports = declared.reply == ReplyKind::NonNull;
    let received = Protocol::BOTH.map(|protocol| {
        let received: Vec<Reply> = replies.iter().map(|reply| reply.received(protocol)).collect();
        (protocol, received)
    });
    let refused: Vec<&(Protocol, Vec<Reply>)> = received
        .iter()
        .filter(|(_, received)| {
            // A script that only raises errors replies nothing to hold.
            !(received.is_empty()
                || (nil_reply_reports && received.iter().all(|reply| *reply == Reply::Nil))
                || received
                    .iter()
                    .any(|reply| reply_type::fits(reply, &declared.reply_type)))
        })
        .collect();
    let message = match refused.as_slice() {
        [] => return,
        [(protocol, on_one), ..] if refused.len() == 1 => format!(
            "on a {} connection the script replies {}, which the declared return type cannot hold",
            protocol.name(),
            reply::describe(on_one)
        ),
        _ => format!(
            "the script replies {}, which the declared return type cannot hold",
            reply::describe(&replies)
        ),
    };
    let span = body
        .return_spans
        .first()
        .copied()
        .unwrap_or_else(|| fall_through_span(body.block));
    let both = if refused.len() == 1 { " on RESP2 and RESP3" } else { "" };
    let on_both: Vec<Reply> = received.into_iter().flat_map(|(_, received)| received).collect();
    let (rust, header) = reply_type::suggestion(&on_both);
    diagnostics.push(
        Diagnostic::error(Rule::ReplyShape, Target::Reply, span, message).with_note(
            match declared.checker {
                Checker::Attribute => format!("declare a type that holds it{both}, e.g. `{rust}`"),
                Checker::CommandLine => format!(
                    "declare a reply type in the header that holds it{both}, e.g. `---@return {header}`"
                ),
            },
        ),
    );
}

/// What a script's replies are made of as it runs: whether Redis gives its
/// commands' replies to it in RESP2 (the default) or in RESP3 (after
/// `redis.setresp(3)`), where a map, a set, a double and a boolean come as
/// such, and `false` is a boolean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Resp2,
    Resp3,
    /// Either: the script may switch, not before every `return`.
    Either,
}

impl Mode {
    /// The mode of `function`'s replies: RESP3 where its body switches
    /// first thing ([`Model::switches_to_resp3_first`]); RESP2 where nothing
    /// in the file may switch.
    fn of(model: &Model, function: FunctionId) -> Mode {
        if !model.may_use_resp3() {
            Mode::Resp2
        } else if model.switches_to_resp3_first(function) {
            Mode::Resp3
        } else {
            Mode::Either
        }
    }

    /// The protocols the script's replies may be made in.
    fn resp2(self) -> bool {
        self != Mode::Resp3
    }

    fn resp3(self) -> bool {
        self != Mode::Resp2
    }

    /// What a Lua boolean that may be `false` replies: nil in RESP2, a
    /// boolean ([`Reply::False`]) in RESP3.
    fn falsy(self) -> Vec<Reply> {
        let mut replies = Vec::new();
        if self.resp2() {
            replies.push(Reply::Nil);
        }
        if self.resp3() {
            replies.push(Reply::False);
        }
        replies
    }
}

/// The replies `expr` can send ([`Reply::Any`] where its text does not
/// settle them).
fn replies_of(expr: &Expr, locals: &Model, mode: Mode, depth: usize) -> Vec<Reply> {
    // Locals that refer to locals: a few steps are plenty.
    if depth > 8 {
        return vec![Reply::Any];
    }
    match expr {
        Expr::Nil(_) => vec![Reply::Nil],
        Expr::False(_) => mode.falsy(),
        Expr::True(_) | Expr::Number(..) => vec![Reply::Integer],
        Expr::String(text, _) => vec![Reply::String(Some(text.clone()))],
        Expr::Table(fields, _) => table_replies(fields, locals, mode, depth),
        Expr::Paren(inner, _) => replies_of(inner, locals, mode, depth + 1),
        Expr::Name(name) => match locals.binding_of(name) {
            Some(binding) => binding_replies(binding, locals, mode, depth),
            None => vec![Reply::Any],
        },
        Expr::Unary {
            op: UnOp::Len | UnOp::Neg,
            ..
        } => vec![Reply::Integer],
        Expr::Unary { op: UnOp::Not, .. } => [vec![Reply::Integer], mode.falsy()].concat(),
        Expr::Binary { op, .. } => match op {
            BinOp::Concat => vec![Reply::String(literal_text(expr))],
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                vec![Reply::Integer]
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                [vec![Reply::Integer], mode.falsy()].concat()
            }
            BinOp::And | BinOp::Or => vec![Reply::Any],
        },
        Expr::Call { func, args, .. } => match local_function(func, locals) {
            Some(function) => function_replies(function, locals, mode, depth),
            None => call_replies(func, args, mode).unwrap_or(vec![Reply::Any]),
        },
        _ => vec![Reply::Any],
    }
}

/// What a local can hold: the replies of every value it is given (its
/// declaration and each assignment); a table's elements are not taken from
/// its constructor, which the script may fill, and a table given a field
/// that may make it a status, an error or a double is not settled.
fn binding_replies(binding: BindingId, model: &Model, mode: Mode, depth: usize) -> Vec<Reply> {
    let held = &model.bindings[binding];
    let settles_kind = held.fields.iter().all(|(key, _)| match key {
        FieldKey::Position => true,
        FieldKey::Name(name) => !SPECIAL_FIELDS.iter().any(|field| field.as_bytes() == *name),
        FieldKey::Other => false,
    });
    let parameter = matches!(
        held.kind,
        BindingKind::Parameter(..) | BindingKind::Implicit
    );
    if parameter || !settles_kind || model.role(binding).is_some() {
        return vec![Reply::Any];
    }
    let mut replies = Vec::new();
    for given in &held.given {
        match given {
            Given::Expr(expr) | Given::Nth(expr, 0) => {
                replies.extend(replies_of(expr, model, mode, depth + 1).into_iter().map(|reply| {
                    match reply {
                        Reply::Array(_) => Reply::ARRAY,
                        other => other,
                    }
                }));
            }
            Given::Nil => replies.push(Reply::Nil),
            Given::Number => replies.push(Reply::Integer),
            _ => return vec![Reply::Any],
        }
    }
    replies
}

/// The local function a call names directly, never given another value.
fn local_function(func: &Expr, model: &Model) -> Option<FunctionId> {
    let Expr::Name(name) = func else {
        return None;
    };
    let binding = model.binding_of(name)?;
    (model.bindings[binding].given.len() == 1)
        .then(|| model.declared_function(binding))
        .flatten()
}

/// What a call of a local function replies: the first value of each of
/// its `return`s, nil where it may end without one.
fn function_replies(function: FunctionId, model: &Model, mode: Mode, depth: usize) -> Vec<Reply> {
    let body = &model.functions[function];
    let mut replies = Vec::new();
    for exprs in &body.returns {
        match exprs.first() {
            Some(expr) => replies.extend(replies_of(expr, model, mode, depth + 1)),
            None => replies.push(Reply::Nil),
        }
    }
    if !terminates(body.block) {
        replies.push(Reply::Nil);
    }
    replies
}

/// The text of `a .. b .. c` when every part is a literal (a string, or a
/// number Lua writes the same way): `None` otherwise.
fn literal_text(expr: &Expr) -> Option<Vec<u8>> {
    let mut text = Vec::new();
    for part in expr.concat_parts() {
        match part {
            Expr::String(bytes, _) => text.extend_from_slice(bytes),
            Expr::Number(number, _) if number.fract() == 0.0 && number.abs() < 1e15 => {
                text.extend_from_slice((*number as i64).to_string().as_bytes())
            }
            _ => return None,
        }
    }
    Some(text)
}

/// The fields that make Redis read a table as something else than an
/// array: an error, a status, a double, and RESP3's big number, verbatim
/// string, map and set (sent on RESP2 as strings and arrays).
const SPECIAL_FIELDS: &[&str] = &[
    "err",
    "ok",
    "double",
    "big_number",
    "verbatim_string",
    "map",
    "set",
];

/// The replies of a table constructor: Redis reads a table with an `err`
/// field as an error, with `ok` as a status, with `double` as a double, with
/// another of [`SPECIAL_FIELDS`] as what the text does not settle here, and
/// any other as the array of its elements up to the first nil.
fn table_replies(fields: &[Field], locals: &Model, mode: Mode, depth: usize) -> Vec<Reply> {
    let special = |field: &Field| matches!(field, Field::Named(name, _) if SPECIAL_FIELDS.contains(&name.text.as_str()));
    match fields {
        [Field::Named(name, value)] if name.text == "ok" => vec![Reply::Status(match value {
            Expr::String(text, _) => Some(text.clone()),
            _ => None,
        })],
        [Field::Named(name, _)] if name.text == "err" => Vec::new(),
        [Field::Named(name, _)] if name.text == "double" => vec![Reply::Double],
        // RESP3's own replies, which a RESP2 connection receives as strings
        // and arrays ([`Reply::received`]).
        [Field::Named(name, value)] if name.text == "big_number" => {
            vec![Reply::BigNumber(match value {
                Expr::String(text, _) => Some(text.clone()),
                _ => None,
            })]
        }
        [Field::Named(name, _)] if name.text == "verbatim_string" => vec![Reply::Verbatim],
        [Field::Named(name, _)] if name.text == "map" => vec![Reply::Map],
        [Field::Named(name, _)] if name.text == "set" => vec![Reply::Set],
        // Which field wins, or what a computed key is, is not settled here.
        _ if fields
            .iter()
            .any(|field| special(field) || matches!(field, Field::Keyed(..))) =>
        {
            vec![Reply::Any]
        }
        _ => {
            let positional: Vec<&Expr> = fields
                .iter()
                .filter_map(|field| match field {
                    Field::Positional(expr) => Some(expr),
                    _ => None,
                })
                .collect();
            vec![Reply::Array(array_elements(&positional, locals, mode, depth))]
        }
    }
}

/// The elements a table's positional values make: they end at the first
/// that may be nil, and a last call or `...` adds any number of values.
fn array_elements(values: &[&Expr], locals: &Model, mode: Mode, depth: usize) -> Elements {
    let mut leading = Vec::new();
    for (index, value) in values.iter().enumerate() {
        let open_ended = index + 1 == values.len() && is_multi(value);
        let replies = replies_of(value, locals, mode, depth + 1);
        if open_ended || replies.iter().any(Reply::may_be_nil) {
            return Elements {
                leading,
                exact: false,
            };
        }
        leading.push(replies);
    }
    Elements {
        leading,
        exact: true,
    }
}

/// The replies of a call's result: a Redis command or a library function
/// whose result is settled.
fn call_replies(func: &Expr, args: &[Expr], mode: Mode) -> Option<Vec<Reply>> {
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
            command_replies(&String::from_utf8_lossy(name), &args[1..], mode)
        }
        "redis.status_reply" | "server.status_reply" => Some(vec![Reply::Status(match args {
            [Expr::String(text, _)] => Some(text.clone()),
            _ => None,
        })]),
        "redis.error_reply" | "server.error_reply" | "error" => Some(Vec::new()),
        "tonumber" => Some(vec![Reply::Integer, Reply::Nil]),
        "tostring" | "cjson.encode" | "cmsgpack.pack" | "redis.sha1hex" | "table.concat" => {
            Some(vec![Reply::STRING])
        }
        path if path.starts_with("string.")
            && !matches!(
                path,
                "string.find" | "string.match" | "string.byte" | "string.gmatch" | "string.len"
            ) =>
        {
            Some(vec![Reply::STRING])
        }
        "string.len" => Some(vec![Reply::Integer]),
        _ => None,
    }
}

/// The replies of `redis.call(name, args...)` as [`replies::call_replies`]
/// gives them, in the protocols `mode` allows; `None` where it knows
/// nothing.
fn command_replies(name: &str, args: &[Expr], mode: Mode) -> Option<Vec<Reply>> {
    let known = replies::call_replies(name, &replies::args_of(args))?;
    let mut out = Vec::new();
    if mode.resp2() {
        out.extend(kinds_replies(&known, known.kinds, array_of(&known)));
    }
    if mode.resp3() {
        match known.resp3 {
            // A nil element is a hole in a Lua table: no element settled.
            Some(kinds) => out.extend(kinds_replies(&known, kinds, Elements::UNKNOWN)),
            None => out.push(Reply::Any),
        }
    }
    Some(out)
}

/// The replies of `kinds` of a command's reply facts, an array's being
/// `array`.
fn kinds_replies(known: &replies::Replies, kinds: replies::Kinds, array: Elements) -> Vec<Reply> {
    let mut out = Vec::new();
    if kinds.contains(kind::INTEGER) {
        out.push(Reply::Integer);
    }
    if kinds.contains(kind::STRING) {
        out.push(match known.pattern {
            Some(replies::STREAM_ID) => Reply::StreamId,
            _ => Reply::STRING,
        });
    }
    if kinds.contains(kind::STATUS) {
        out.extend(known.statuses.iter().copied().map(Reply::status));
    }
    if kinds.contains(kind::ARRAY) {
        out.push(Reply::Array(array));
    }
    if kinds.contains(kind::MAP) {
        out.push(Reply::Map);
    }
    if kinds.contains(kind::SET) {
        out.push(Reply::Set);
    }
    if kinds.contains(kind::DOUBLE) {
        out.push(Reply::Double);
    }
    if kinds.contains(kind::BOOLEAN) {
        out.extend([Reply::Integer, Reply::False]);
    }
    if kinds.contains(kind::NIL) {
        out.push(Reply::Nil);
    }
    out
}

/// What an array reply's facts settle about its elements: as many leading
/// ones as its length says, each of the kinds its elements can be.
fn array_of(known: &replies::Replies) -> Elements {
    let (count, exact) = match known.length {
        Length::Exactly(count) => (count, true),
        Length::AtLeast(count) => (count, false),
        Length::Unknown => return Elements::UNKNOWN,
    };
    let element = match known.elements {
        Some(kinds) => [
            (kind::INTEGER, Reply::Integer),
            (kind::STRING, Reply::STRING),
            (kind::STATUS, Reply::Status(None)),
            (kind::ARRAY, Reply::ARRAY),
            (kind::NIL, Reply::Nil),
        ]
        .into_iter()
        .filter(|(bit, _)| kinds.contains(*bit))
        .map(|(_, reply)| reply)
        .collect(),
        None => vec![Reply::Any],
    };
    Elements {
        leading: vec![element; count],
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::Declared;
    use crate::reply_type::RustType;
    use crate::semantic::Environment;
    use crate::syntax::parser::parse;

    fn refused(source: &str, reply_type: RustType) -> Vec<String> {
        let declared = Declared {
            reply: crate::reply_type::reply_kind(&reply_type),
            reply_type,
            keys: 1,
            args: 2,
            ..Declared::default()
        };
        let chunk = parse(source).unwrap();
        let model = Model::build(&chunk, Environment::Script);
        let context = Context {
            source: source.as_bytes(),
            model: &model,
            declared: &declared,
            callback: None,
        };
        let mut found = Vec::new();
        check(&context, &mut found);
        found.into_iter().map(|d| d.message).collect()
    }

    fn named(name: &str) -> RustType {
        RustType::named(name)
    }

    fn vec_of(name: &str) -> RustType {
        RustType::of("Vec", named(name))
    }

    fn tuple(names: &[&str]) -> RustType {
        RustType::Tuple(names.iter().map(|name| named(name)).collect())
    }

    #[test]
    fn a_name_is_its_binding_not_another_of_the_same_name() {
        // `args` returned is the parameter (an array), not the `local args`
        // of one branch.
        let pair = tuple(&["String", "String"]);
        let source = "local function f(keys, args) if #keys == 0 then local args = 'none' end \
                      return args end return f(KEYS, ARGV)";
        assert_eq!(refused(source, pair.clone()), Vec::<String>::new());
        // The local, returned where it is in scope, settles the reply.
        assert_eq!(refused("local args = 'none' return args", pair).len(), 1);
    }

    #[test]
    fn replies_are_followed_through_local_functions_and_built_text() {
        let refusals = [
            // A local function's returns.
            (
                "local function state() return 'locked' end return state()",
                "i64",
            ),
            // Text built of literals has its text.
            ("local state = 'lock' .. 'ed' return state", "i64"),
            ("return 'page' .. 2", "i64"),
            // Assigned twice, each time a word.
            (
                "local state = 'free' if ARGV[1] then state = 'taken' end return state",
                "bool",
            ),
        ];
        for (source, ty) in refusals {
            assert_eq!(refused(source, named(ty)).len(), 1, "{source}");
        }
        let accepted = [
            (
                "local function state() return 'locked' end return state()",
                "String",
            ),
            ("return '1' .. '2'", "i64"),
            (
                "local function n() if ARGV[1] then return 1 end return 'x' end return n()",
                "i64",
            ),
            // A function given another value may be anything.
            (
                "local function s() return 'x' end s = tostring return s(1)",
                "i64",
            ),
        ];
        for (source, ty) in accepted {
            assert_eq!(refused(source, named(ty)), Vec::<String>::new(), "{source}");
        }
    }

    #[test]
    fn resp3_reply_tables_are_judged_as_a_client_gets_them() {
        // A map or a set is an array on RESP2 (a map or a set on RESP3):
        // no scalar holds it.
        assert_eq!(refused("return {map = {a = '1'}}", named("i64")).len(), 1);
        assert_eq!(refused("return {set = {a = true}}", named("String")).len(), 1);
        // A big number or a verbatim string is a string on RESP2: not an
        // array, and a number only where its text is one.
        assert_eq!(refused("return {big_number = '12345'}", named("bool")).len(), 1);
        let verbatim = "return {verbatim_string = {format = 'txt', string = 'hi'}}";
        assert_eq!(refused(verbatim, tuple(&["String", "String"])).len(), 1);
        // What RESP2 folds and RESP3 does not: a map is no sequence of
        // strings, a big number no string nor integer, a double no bool
        // nor bytes, on a RESP3 connection.
        let on_resp3 = |reply: &str| {
            vec![format!(
                "on a RESP3 connection the script replies {reply}, which the declared return \
                 type cannot hold"
            )]
        };
        assert_eq!(refused("return {map = {a = '1'}}", vec_of("String")), on_resp3("a map"));
        assert_eq!(refused("return {big_number = '123'}", named("i64")), on_resp3("a big number"));
        assert_eq!(refused("return {big_number = '123'}", named("String")), on_resp3("a big number"));
        assert_eq!(refused("return {double = 3.5}", vec_of("u8")), on_resp3("a double"));
        assert_eq!(refused("return {double = 1}", named("bool")), on_resp3("a double"));
        assert_eq!(refused("return {set = {a = true}}", named("HashMap")), on_resp3("a set"));
        // What holds both.
        for (source, ty) in [
            ("return {map = {a = '1'}}", named("HashMap")),
            ("return {map = {a = '1'}}", RustType::of("Vec", tuple(&["String", "String"]))),
            ("return {set = {a = true}}", vec_of("String")),
            ("return {set = {a = true}}", named("HashSet")),
            ("return {set = {a = true, b = true}}", RustType::of("Vec", tuple(&["String", "String"]))),
            ("return {map = {a = '1'}}", vec_of("Value")),
            ("return {double = 3.5}", named("f64")),
            ("return {double = 3.5}", named("String")),
            ("return {big_number = '123'}", named("Value")),
        ] {
            assert!(refused(source, ty.clone()).is_empty(), "{source} into {ty:?}");
        }
    }

    #[test]
    fn after_setresp_3_replies_are_judged_on_both_protocols() {
        // HGETALL replies a map once the script switched: RESP3 sends it as
        // one, which a sequence of strings cannot hold.
        let hgetall = "redis.setresp(3) return redis.call('HGETALL', KEYS[1])";
        assert_eq!(
            refused(hgetall, vec_of("String")),
            ["on a RESP3 connection the script replies a map, which the declared return type \
              cannot hold"]
        );
        assert!(refused(hgetall, named("HashMap")).is_empty());
        // redis-rs reads each entry of a map as a map of one: a `Vec` of
        // values or maps takes it.
        assert!(refused(hgetall, vec_of("Value")).is_empty());
        assert!(refused(hgetall, vec_of("HashMap")).is_empty());
        // Without the switch, RESP2 replies reach both protocols alike.
        let plain = "return redis.call('HGETALL', KEYS[1])";
        assert!(refused(plain, vec_of("String")).is_empty());
        // A switch that may come after a return: either form.
        let late = "if ARGV[1] then return redis.call('HGETALL', KEYS[1]) end \
                    redis.setresp(3) return redis.call('HGETALL', KEYS[1])";
        assert!(refused(late, vec_of("String")).is_empty());
        // A reply fetched before the switch keeps its RESP2 shape; a second
        // switch may go back.
        for source in [
            "local v = redis.call('HGETALL', KEYS[1]) redis.setresp(3) return v",
            "local function f() return redis.call('HGETALL', KEYS[1]) end \
             local r = f() redis.setresp(3) return r",
            "redis.setresp(3) redis.setresp(2) return redis.call('HGETALL', KEYS[1])",
        ] {
            assert!(refused(source, vec_of("String")).is_empty(), "{source}");
        }
        let conditional = "if ARGV[1] then redis.setresp(3) end return redis.call('HGETALL', KEYS[1])";
        assert!(refused(conditional, vec_of("String")).is_empty());
        // A double (ZINCRBY's) is no bool on RESP3; a set (SMEMBERS) may
        // be an array.
        let zincrby = "redis.setresp(3) return redis.call('ZINCRBY', KEYS[1], 1, 'm')";
        assert_eq!(
            refused(zincrby, named("bool")),
            ["on a RESP3 connection the script replies a double, which the declared return \
              type cannot hold"]
        );
        assert!(refused(zincrby, named("f64")).is_empty());
        let smembers = "redis.setresp(3) return redis.call('SMEMBERS', KEYS[1])";
        assert!(refused(smembers, vec_of("String")).is_empty());
        // `false` after the switch: nil to a binding on RESP3, 0 on RESP2;
        // an integer type takes only the latter.
        let falsy = "redis.setresp(3) return false";
        assert_eq!(
            refused(falsy, tuple(&["i64", "i64"])),
            ["the script replies false, which the declared return type cannot hold"]
        );
        assert!(refused(falsy, RustType::of("Option", named("i64"))).is_empty());
        assert!(refused(falsy, named("bool")).is_empty());
        // A reply only seen on RESP2 (a vector set's) is anything on RESP3.
        let vsim = "redis.setresp(3) return redis.call('VSIM', KEYS[1], 'ELE', 'a')";
        assert!(refused(vsim, named("i64")).is_empty());
        assert_eq!(refused("return redis.call('VSIM', KEYS[1], 'ELE', 'a')", named("i64")).len(), 1);
    }

    #[test]
    fn what_the_text_does_not_settle_is_not_refused() {
        // RESP3's reply tables, into types both protocols hold them in.
        let verbatim = "return {verbatim_string = {format = 'txt', string = 'hi'}}";
        assert!(refused(verbatim, named("String")).is_empty());
        assert!(refused("return {map = {a = '1'}}", tuple(&["String", "String"])).is_empty());
        assert!(refused("return {set = {'a'}}", vec_of("String")).is_empty());
        // A table made a status or a double after its declaration.
        assert!(refused("local r = {} r.ok = 'DONE' return r", named("String")).is_empty());
        assert!(refused("local r = {} r['double'] = 1.5 return r", named("f64")).is_empty());
        assert!(
            refused(
                "local r = {} local k = ARGV[1] r[k] = 1 return r",
                named("i64")
            )
            .is_empty()
        );
        // Options (`GET`, `NX`, `INCR`, a count) may come from ARGV.
        assert!(
            refused(
                "return redis.call('SET', KEYS[1], unpack(ARGV))",
                named("i64")
            )
            .is_empty()
        );
        assert!(
            refused(
                "return redis.call('ZADD', KEYS[1], unpack(ARGV))",
                named("String")
            )
            .is_empty()
        );
        // Errors are no replies to hold.
        assert!(refused("return redis.error_reply('NOPE')", RustType::Unit).is_empty());
        // Nil alone is the nil-reply check's.
        assert!(refused("return nil", named("String")).is_empty());
        // Positions keep a table an array, which an integer type cannot hold.
        assert_eq!(
            refused(
                "local t = {} t[#t + 1] = 1 t.name = 'x' return t",
                named("i64")
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_type_that_holds_none_of_the_replies_is_refused() {
        let found = refused("return redis.call('INCR', KEYS[1])", vec_of("String"));
        assert_eq!(
            found,
            ["the script replies an integer, which the declared return type cannot hold"]
        );
        assert_eq!(
            refused("return redis.call('HGETALL', KEYS[1])", named("i64")).len(),
            1
        );
        assert_eq!(
            refused("local t = {} table.insert(t, 1) return t", named("i64")).len(),
            1
        );
        assert_eq!(
            refused(
                "if ARGV[1] then return 1 end return #KEYS",
                vec_of("String")
            )
            .len(),
            1
        );
        assert_eq!(refused("return {ok = 'DONE'}", vec_of("String")).len(), 1);
    }

    #[test]
    fn reply_schemas_settle_commands_the_hand_written_list_lacked() {
        // A stream ID is no number.
        let xadd = "return redis.call('XADD', KEYS[1], '*', 'f', ARGV[1])";
        assert_eq!(
            refused(xadd, named("i64")),
            ["the script replies a stream ID, which the declared return type cannot hold"]
        );
        assert!(refused(xadd, named("String")).is_empty());
        assert!(refused(xadd, vec_of("u8")).is_empty());
        // Fixed lengths: TIME's seconds and microseconds.
        let time = "return redis.call('TIME')";
        assert!(refused(time, tuple(&["i64", "i64"])).is_empty());
        assert_eq!(
            refused(time, tuple(&["i64", "i64", "i64"])),
            [
                "the script replies an array of 2 elements, which the declared return type \
              cannot hold"
                    .replace("  ", "")
            ]
        );
        // A count makes HRANDFIELD reply an array; a subcommand, a string or nil.
        let fields = "return redis.call('HRANDFIELD', KEYS[1], 2)";
        assert_eq!(refused(fields, named("i64")).len(), 1);
        assert!(refused(fields, vec_of("String")).is_empty());
        let encoding = "return redis.call('OBJECT', 'ENCODING', KEYS[1])";
        assert_eq!(refused(encoding, vec_of("i64")).len(), 0);
        assert_eq!(refused(encoding, tuple(&["i64", "i64"])).len(), 1);
        // LPOS: a position or nil, an array of them with COUNT.
        let position = "return redis.call('LPOS', KEYS[1], ARGV[1])";
        assert_eq!(refused(position, tuple(&["i64", "i64"])).len(), 1);
        assert!(refused(position, named("i64")).is_empty());
        let positions = "return redis.call('LPOS', KEYS[1], ARGV[1], 'COUNT', 0)";
        assert_eq!(refused(positions, named("i64")).len(), 1);
        // Without a schema (EVAL's), and with options in ARGV: anything.
        assert!(refused("return redis.call('LPOS', KEYS[1], unpack(ARGV))", named("i64")).is_empty());
        assert!(refused("return redis.call('FCALL', 'f', 0)", vec_of("String")).is_empty());
    }

    #[test]
    fn word_literals_are_neither_numbers_nor_booleans() {
        let script = "if redis.call('EXISTS', KEYS[1]) == 1 then return 'locked' end return 'free'";
        for ty in [named("i64"), named("bool"), named("f64"), vec_of("i64")] {
            assert_eq!(
                refused(script, ty),
                [
                    "the script replies the string \"locked\" or the string \"free\", \
                  which the declared return type cannot hold"
                        .replace("  ", "")
                ]
            );
        }
        assert!(refused(script, named("String")).is_empty());
        assert!(refused(script, vec_of("String")).is_empty());
        // Texts redis-rs reads as numbers or booleans (2.0 reads "true").
        assert!(refused("return '12'", named("i64")).is_empty());
        assert!(refused("return '-3'", vec_of("u8")).is_empty());
        assert!(refused("return '1.5'", named("f64")).is_empty());
        assert!(refused("return 'inf'", named("f64")).is_empty());
        assert_eq!(refused("return '1.5'", named("i64")).len(), 1);
        for text in ["0", "1", "true", "false"] {
            assert!(
                refused(&format!("return '{text}'"), named("bool")).is_empty(),
                "{text}"
            );
        }
        assert_eq!(refused("return 'yes'", named("bool")).len(), 1);
    }

    #[test]
    fn statuses_are_strings_and_ok_is_true() {
        for script in [
            "return redis.status_reply('OK')",
            "return {ok = 'OK'}",
            "return redis.call('SET', KEYS[1], ARGV[1])",
            "return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])",
            "return redis.call('HMSET', KEYS[1], 'a', ARGV[1])",
        ] {
            assert_eq!(refused(script, named("i64")).len(), 1, "{script}");
            assert_eq!(refused(script, vec_of("String")).len(), 1, "{script}");
            assert!(refused(script, named("String")).is_empty(), "{script}");
            // `Value::Okay` is `true` to redis-rs.
            assert!(refused(script, named("bool")).is_empty(), "{script}");
        }
        assert_eq!(
            refused("return redis.call('TYPE', KEYS[1])", named("i64")),
            [
                "the script replies the status \"none\", the status \"string\", \
              the status \"list\", the status \"set\", the status \"zset\", \
              the status \"hash\", the status \"stream\" or the status \"vectorset\", \
              which the declared \
              return type cannot hold"
                    .replace("  ", "")
            ]
        );
        assert_eq!(
            refused("return redis.status_reply('DONE')", named("bool")).len(),
            1
        );
        // A status of unknown text may be a number.
        assert!(refused("return redis.status_reply(ARGV[1])", named("i64")).is_empty());
        // Options the text does not settle, or that make nil or a string.
        for script in [
            "return redis.call('SET', KEYS[1], ARGV[1], ARGV[2])",
            "return redis.call('SET', KEYS[1], ARGV[1], 'NX')",
            "return redis.call('SET', KEYS[1], ARGV[1], 'GET')",
        ] {
            assert!(refused(script, vec_of("String")).is_empty(), "{script}");
        }
        assert_eq!(
            refused(
                "return redis.call('SET', KEYS[1], ARGV[1], 'XX')",
                named("i64")
            ),
            [
                "the script replies the status \"OK\" or nil, which the declared return type \
              cannot hold"
                    .replace("  ", "")
            ]
        );
        let either = "if ARGV[1] then return redis.status_reply('DONE') end \
                      return redis.call('SMEMBERS', KEYS[1])";
        assert_eq!(refused(either, named("i64")).len(), 1);
        assert!(refused(either, vec_of("String")).is_empty());
    }

    #[test]
    fn integers_and_scalars_are_not_tuples() {
        let pair = tuple(&["i64", "i64"]);
        assert_eq!(
            refused("return redis.call('INCR', KEYS[1])", pair.clone()),
            ["the script replies an integer, which the declared return type cannot hold"]
        );
        assert_eq!(refused("return nil", pair.clone()).len(), 1);
        assert!(refused("return {1, 2}", pair.clone()).is_empty());
        assert_eq!(
            refused("return {1, 2, 3}", pair.clone()),
            [
                "the script replies an array of 3 elements, which the declared return type \
              cannot hold"
                    .replace("  ", "")
            ]
        );
        assert_eq!(refused("return {1, 'x'}", pair.clone()).len(), 1);
        // Up to the first nil, and a last call adds any number of values.
        assert!(refused("return {1, 2, ARGV[1], 4}", pair.clone()).is_empty());
        assert!(refused("return {1, unpack(ARGV)}", pair.clone()).is_empty());
        assert_eq!(
            refused("return {1, 2, unpack(ARGV)}", tuple(&["i64"])).len(),
            1
        );
        assert!(
            refused(
                "return redis.call('SMISMEMBER', KEYS[1], 'a', 'b')",
                pair.clone()
            )
            .is_empty()
        );
        assert_eq!(
            refused(
                "return redis.call('SMISMEMBER', KEYS[1], 'a', 'b', 'c')",
                pair
            )
            .len(),
            1
        );
        // A table filled after its declaration is any array.
        assert!(
            refused(
                "local t = {} t[1] = 1 t[2] = 2 return t",
                tuple(&["i64", "i64"])
            )
            .is_empty()
        );
        assert!(refused("return redis.call('INCR', KEYS[1])", RustType::Unit).is_empty());
    }

    #[test]
    fn arrays_are_not_booleans_and_their_elements_are_judged() {
        assert_eq!(
            refused(
                "return redis.call('SMISMEMBER', KEYS[1], ARGV[1])",
                named("bool")
            )
            .len(),
            1
        );
        assert!(
            refused(
                "return redis.call('SMISMEMBER', KEYS[1], ARGV[1])",
                vec_of("bool")
            )
            .is_empty()
        );
        assert_eq!(refused("return {'a', 'b'}", vec_of("i64")).len(), 1);
        assert!(refused("return {'1', 2}", vec_of("i64")).is_empty());
        assert!(refused("return {}", vec_of("i64")).is_empty());
        // A vector of pairs also takes a flat array.
        assert!(
            refused(
                "return {'a', 1}",
                RustType::of("Vec", tuple(&["String", "i64"]))
            )
            .is_empty()
        );
    }

    #[test]
    fn a_type_that_holds_one_of_them_or_unsettled_replies_pass() {
        // A string fits a Vec (one element), nil fits it too.
        assert!(refused("return redis.call('GET', KEYS[1])", vec_of("String")).is_empty());
        assert!(refused("if ARGV[1] then return 1 end return {}", named("i64")).is_empty());
        // Not settled: a library function's result, `and`/`or`; a local set
        // twice holds either value.
        let vec = vec_of("String");
        assert!(refused("return cjson.decode(ARGV[1])", vec.clone()).is_empty());
        assert!(refused("return ARGV[1] and 1 or 2", vec.clone()).is_empty());
        assert!(refused("local x = 1 x = {} return x", vec.clone()).is_empty());
        assert!(refused("return {ok = 'OK', 1}", named("i64")).is_empty());
        // Errors are not replies.
        assert!(
            refused(
                "if ARGV[1] then return redis.error_reply('E') end return {}",
                vec.clone()
            )
            .is_empty()
        );
        // ZADD ... INCR replies a string; SET ... GET a string.
        assert!(refused("return redis.call('ZADD', KEYS[1], 'INCR', 1, 'm')", vec).is_empty());
    }
}
