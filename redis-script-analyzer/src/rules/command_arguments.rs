//! `command_arguments`: a command call whose arguments the command's
//! grammar refuses.
//!
//! Each call whose arguments can be counted, and that passes the arity
//! check (`command_arity` reports the others), is matched against the
//! grammar of each targeted server (`COMMAND DOCS`, [`crate::grammar`]):
//! an option word no reading takes ("ERR syntax error"), an option's
//! missing value, two choices of one `oneof` (`NX` with `XX`), a literal
//! that is not a number where the grammar wants one ("value is not an
//! integer or out of range"), a repeated group cut short. A word the text
//! does not settle may be any word, so a refusal reported is one on every
//! run. The finding names the argument, what the grammar expected there,
//! and the servers that accept the call.

use super::command_table::{self, Lookup};
use super::{Context, Judges, Meta};
use crate::diagnostic::{Diagnostic, Target};
use crate::grammar::matching::{Expected, Literal, Refusal, Verdict, Word, accepts, judge};
use crate::grammar::{self, Arg, Kind};
use crate::rule::Rule;
use crate::semantic::Model;
use crate::semantic::command::CommandCall;
use crate::semantic::value::Value;
use crate::servers::{Server, Servers};
use crate::suggest::suggest;
use crate::syntax::tree::Expr;

pub(super) const RULE: Meta = Meta {
    check: Some(check),
    judges: Judges::File,
};

fn check(context: &Context, diagnostics: &mut Vec<Diagnostic>) {
    let targets = context.declared.servers;
    for call in context.model.commands() {
        if !command_table::counted(&call) {
            continue;
        }
        let Some((name, skip)) = grammar_name(&call) else {
            continue;
        };
        let Some(args) = call.args.get(skip..) else {
            continue;
        };
        let words: Vec<Word> = args.iter().map(|arg| word(context.model, arg)).collect();
        let verdicts: Vec<(Servers, Verdict)> = grammar::grammars(&name)
            .iter()
            .map(|grammar| (grammar.servers, judge(grammar.args, &words)))
            .collect();
        let verdict_on = |server: Server| {
            verdicts
                .iter()
                .find(|(servers, _)| servers.contains(server))
                .map(|(_, verdict)| verdict)
        };
        let Some(refusal) = targets.iter().find_map(|server| match verdict_on(server) {
            Some(Verdict::Refused(refusal)) => Some(refusal),
            _ => None,
        }) else {
            continue;
        };
        // What the tables say first: a command some target lacks, or a
        // number of arguments it refuses (`command_arity`'s), is not the
        // grammar's to report. Asked only of a refused call: most are not.
        let Lookup::Known(known) = command_table::lookup(&call, targets) else {
            continue;
        };
        let count = command_table::words(&call);
        if known
            .effective
            .iter()
            .any(|(_, found)| !found.accepts_word_count(count))
        {
            continue;
        }
        let accepting = Servers::ALL.filter(|server| verdict_on(server) == Some(&Verdict::Accepted));
        diagnostics.push(finding(
            context, &call, args, &words, refusal, accepting,
        ));
    }
}

/// The name `call`'s grammar goes by, and how many of its arguments name
/// it: `set`, or `object|encoding` for a container's subcommand (its first
/// argument, a literal); `None` for a computed subcommand.
fn grammar_name(call: &CommandCall) -> Option<(String, usize)> {
    if !grammar::grammars(&call.name).is_empty() {
        return Some((call.name.clone(), 0));
    }
    let Some(Expr::String(sub, _)) = call.args.first() else {
        return None;
    };
    let name = format!("{}|{}", call.name, String::from_utf8_lossy(sub).to_ascii_lowercase());
    (!grammar::grammars(&name).is_empty()).then_some((name, 1))
}

/// What the text settles about an argument: the literals it may be, or
/// any word.
fn word<'t>(model: &Model<'t>, arg: &'t Expr) -> Word<'t> {
    let value = model.value(arg);
    let literals: Option<Vec<Literal<'t>>> = value
        .alternatives()
        .iter()
        .map(|value| match value {
            Value::Text(text) => Some(Literal::Text(text)),
            Value::Number(Some(number)) => Some(Literal::Number(*number)),
            _ => None,
        })
        .collect();
    literals.map_or(Word::Any, Word::Literals)
}

fn finding(
    context: &Context,
    call: &CommandCall,
    args: &[Expr],
    words: &[Word],
    refusal: &Refusal,
    accepting: Servers,
) -> Diagnostic {
    let command = call.name.to_ascii_uppercase();
    let span = match args.get(refusal.at) {
        Some(arg) => arg.span(),
        None => args.last().map_or(call.span, Expr::span),
    };
    let (message, suggestion) = message(&command, words, refusal);
    let note = match (suggestion, accepting.is_empty()) {
        (_, false) => format!(
            "only {} accept this call; to target those, {}",
            accepting.names(),
            accepting.setting(context.declared.checker)
        ),
        (Some(suggestion), true) => format!("did you mean `{suggestion}`?"),
        (None, true) => "no server accepts this call".to_owned(),
    };
    Diagnostic::error(Rule::CommandArguments, Target::File, span, message).with_note(note)
}

/// The message, and a token the misspelt word may have meant.
fn message(command: &str, words: &[Word], refusal: &Refusal) -> (String, Option<&'static str>) {
    if let Some(conflict) = refusal.conflict {
        return (
            format!(
                "`{command}` does not take `{}` with `{}` in one call",
                shown_arg(conflict.now),
                shown_arg(conflict.before)
            ),
            None,
        );
    }
    let tokens: Vec<&'static str> = refusal
        .expected
        .iter()
        .filter_map(|expected| match expected {
            Expected::Token(token) => Some(*token),
            _ => None,
        })
        .collect();
    let values: Vec<&'static Arg> = refusal
        .expected
        .iter()
        .filter_map(|expected| match expected {
            Expected::Value(arg) => Some(*arg),
            _ => None,
        })
        .collect();
    let expected = expected_list(&tokens, &values, refusal.expected.contains(&Expected::End));
    let Some(word) = words.get(refusal.at) else {
        return (
            format!("the call ends where `{command}` expects {expected}"),
            None,
        );
    };
    let found = shown_word(word);
    // A literal of the wrong kind where only values of a kind fit.
    if tokens.is_empty()
        && let Some(arg) = values
            .iter()
            .find(|arg| is_number_kind(arg.kind) && !accepts(arg.kind, word))
    {
        return (
            format!(
                "{found} is not {}: `{command}`'s `{}` is one",
                grammar::kind_words(arg.kind),
                arg.name
            ),
            None,
        );
    }
    let suggestion = match word {
        Word::Literals(literals) => literals.iter().find_map(|literal| match literal {
            Literal::Text(text) => suggest(&String::from_utf8_lossy(text), tokens.iter().copied()),
            Literal::Number(_) => None,
        }),
        Word::Any => None,
    };
    if tokens.is_empty() && values.is_empty() {
        return (
            format!("`{command}` takes no more arguments here, but this call passes {found}"),
            None,
        );
    }
    (
        format!("`{command}` does not take {found} here: it expects {expected}"),
        suggestion,
    )
}

/// `MATCH, COUNT or TYPE`, `` `milliseconds` (an integer) ``, and `nothing
/// more`.
fn expected_list(tokens: &[&str], values: &[&Arg], end: bool) -> String {
    let mut items: Vec<String> = tokens.iter().map(|token| format!("`{token}`")).collect();
    for arg in values {
        let item = format!("`{}` ({})", arg.name, grammar::kind_words(arg.kind));
        if !items.contains(&item) {
            items.push(item);
        }
    }
    if end {
        items.push("nothing more".to_owned());
    }
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "nothing".to_owned(),
    }
}

/// A choice as the call writes it: its token, else its name.
fn shown_arg(arg: &Arg) -> String {
    match (arg.token, arg.args.first()) {
        ("", Some(first)) => shown_arg(first),
        ("", None) => arg.name.to_owned(),
        (token, _) => token.to_owned(),
    }
}

/// A word as the message quotes it: `'5s'`, `1.5`.
fn shown_word(word: &Word) -> String {
    match word {
        Word::Literals(literals) => match literals.as_slice() {
            [Literal::Text(text)] => format!("`'{}'`", String::from_utf8_lossy(text)),
            [Literal::Number(number)] => format!("`{number}`"),
            _ => "any of its values".to_owned(),
        },
        Word::Any => "this argument".to_owned(),
    }
}

fn is_number_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Integer | Kind::Double | Kind::UnixTime)
}


#[cfg(test)]
mod tests {
    use super::check;
    use crate::rules::test_support::{ONE_KEY_TWO_ARGS, run_rule};

    fn messages(script: &str) -> Vec<String> {
        run_rule(script, &ONE_KEY_TWO_ARGS, check)
            .into_iter()
            .map(|finding| format!("{} ({})", finding.message, finding.note.unwrap_or_default()))
            .collect()
    }

    fn refused(script: &str) -> String {
        let found = messages(script);
        assert_eq!(found.len(), 1, "{script}: {found:#?}");
        found[0].clone()
    }

    fn accepted(script: &str) {
        assert_eq!(messages(script), Vec::<String>::new(), "{script}");
    }

    #[test]
    fn an_unknown_option_word_is_refused_with_the_words_expected() {
        let found = refused("return redis.call('SCAN', 0, 'MATCHING', 'p:*')");
        assert!(
            found.starts_with("`SCAN` does not take `'MATCHING'` here: it expects `MATCH`"),
            "{found}"
        );
        let found = refused("return redis.call('SCAN', 0, 'MACTH', 'p:*')");
        assert!(found.contains("did you mean `MATCH`?"), "{found}");
        let found = refused("return redis.call('ZINTERSTORE', KEYS[1], 2, 'a', 'b', 'AGGREGATE', 'AVG')");
        assert!(found.contains("`'AVG'`"), "{found}");
        accepted("return redis.call('ZINTERSTORE', KEYS[1], 2, 'a', 'b', 'aggregate', 'max')");
        accepted("return redis.call('ZINTERSTORE', KEYS[1], 2, 'a', 'AGGREGATE', 'WEIGHTS', 1, 2)");
        accepted("return redis.call('scan', '0', 'match', 'p:*', 'count', 10)");
    }

    #[test]
    fn an_option_missing_its_value_is_refused() {
        let found = refused("return redis.call('GETEX', KEYS[1], 'PX')");
        assert!(
            found.starts_with("the call ends where `GETEX` expects `milliseconds` (an integer)"),
            "{found}"
        );
        refused("return redis.call('SET', KEYS[1], ARGV[1], 'PXAT')");
        accepted("return redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])");
    }

    #[test]
    fn choices_of_one_group_are_refused_together() {
        let found = refused("return redis.call('SET', KEYS[1], 'v', 'NX', 'XX')");
        assert!(
            found.starts_with("`SET` does not take `XX` with `NX` in one call"),
            "{found}"
        );
        refused("return redis.call('ZADD', KEYS[1], 'GT', 'LT', 1, 'm')");
        // The value may be the word: SET k NX XX sets "NX" with XX.
        accepted("return redis.call('SET', KEYS[1], 'NX', 'XX')");
        accepted("return redis.call('SET', KEYS[1], 'v', 'xx', 'ex', 10, 'get')");
        accepted("return redis.call('SET', KEYS[1], 'v', 'EX', 10, 'NX')");
        // Choices the servers take together: the last wins; EXPIRE takes
        // XX with GT, not NX with GT.
        accepted("return redis.call('SORT', KEYS[1], 'ASC', 'DESC')");
        accepted("return redis.call('EXPIRE', KEYS[1], 60, 'XX', 'GT')");
        refused("return redis.call('EXPIRE', KEYS[1], 60, 'NX', 'GT')");
        accepted("return redis.call('ZUNIONSTORE', KEYS[1], 1, KEYS[1], 'AGGREGATE', 'SUM', 'AGGREGATE', 'MIN')");
    }

    #[test]
    fn a_literal_of_the_wrong_kind_is_refused() {
        let found = refused("return redis.call('PEXPIRE', KEYS[1], '5s')");
        assert!(
            found.starts_with("`'5s'` is not an integer: `PEXPIRE`'s `milliseconds` is one"),
            "{found}"
        );
        refused("return redis.call('LRANGE', KEYS[1], 0, 'end')");
        refused("return redis.call('HINCRBY', KEYS[1], 'f', 1.5)");
        accepted("return redis.call('LRANGE', KEYS[1], '0', '-1')");
        accepted("return redis.call('HINCRBY', KEYS[1], 'f', ARGV[1])");
        accepted("return redis.call('ZRANGEBYSCORE', KEYS[1], '(1', '+inf')");
        accepted("return redis.call('ZADD', KEYS[1], '-inf', 'm', 2.5, 'n')");
        // Documented as integers, taken with a fraction by the servers.
        accepted("return redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[1], KEYS[2], 'WEIGHTS', 1.5, '0.5')");
    }

    #[test]
    fn a_repeated_group_cut_short_is_refused() {
        let found = refused("return redis.call('HMSET', KEYS[1], 'f1', 'v1', 'f2')");
        assert!(
            found.starts_with("the call ends where `HMSET` expects `value` (a string)"),
            "{found}"
        );
        accepted("return redis.call('HMSET', KEYS[1], 'f1', 'v1', 'f2', ARGV[1])");
    }

    #[test]
    fn a_count_after_its_own_word_counts_what_follows() {
        let valkey = crate::declared::Declared {
            servers: crate::servers::Servers::only(crate::servers::Server::Valkey9_1),
            ..ONE_KEY_TWO_ARGS
        };
        let polygon = "return redis.call('GEOSEARCH', KEYS[1], 'FROMLONLAT', 0, 0, \
                       'BYPOLYGON', 3, 0, 0, 1, 0, 1, 1)";
        assert_eq!(
            run_rule(polygon, &valkey, check).len(),
            0,
            "{polygon}"
        );
    }

    #[test]
    fn words_the_text_does_not_settle_may_be_any_word() {
        accepted("return redis.call('SET', KEYS[1], ARGV[1], ARGV[2], ARGV[1])");
        accepted("local mode = ARGV[1] return redis.call('SCAN', 0, mode, 'p:*')");
        accepted("return redis.call('SET', KEYS[1], 'v', unpack(ARGV))");
        accepted("local o = 'NX' if ARGV[1] then o = 'XX' end return redis.call('SET', KEYS[1], 'v', o)");
    }
}
