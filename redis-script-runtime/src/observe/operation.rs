//! What OpenTelemetry's database conventions call an operation, for a call
//! and for a pipeline: its `db.operation.name`, its target
//! (`db.stored_procedure.name`), its sanitised `db.query.text`, and for a
//! pipeline its `db.operation.batch.size`.
//!
//! Redis's conventions (semantic conventions 1.44.0, `docs/db/redis.md`):
//! the operation is the command as sent (`EVALSHA`, `FCALL_RO`, ...); the
//! stored procedure is the script's SHA1 for EVALSHA and the function's
//! name for FCALL; the query text is the command in the syntax of
//! `redis-cli` with every literal value replaced by `?`. A pipeline whose
//! operations all have one command is `PIPELINE <command>` (`MULTI
//! <command>` for a transaction), else `PIPELINE` (`MULTI`); one of a
//! single operation is that operation, with no batch size.

use std::fmt::Write as _;

use redis::Arg;

use crate::embedded::script::Script;

/// `EVALSHA <sha1> 2 ? ? ?` (or `FCALL <function> ...`): the query text of
/// a call of `script` with `key_count` keys among its `value_count` values.
#[cfg(feature = "tracing")]
pub(crate) fn call_text(script: &Script, key_count: usize, value_count: usize) -> String {
    let mut text = format!(
        "{} {} {key_count}",
        script.call_command(),
        procedure(script)
    );
    push_placeholders(&mut text, value_count);
    text
}

/// The `db.stored_procedure.name` of a call of `script`: its SHA1, or for a
/// function its name.
pub(crate) fn procedure(script: &Script) -> &'static str {
    script.function_name().unwrap_or(script.sha1())
}

fn push_placeholders(text: &mut String, count: usize) {
    for _ in 0..count {
        text.push_str(" ?");
    }
}

/// One operation of a pipeline, as a span or metric describes it.
#[derive(Debug, PartialEq, Eq)]
struct Operation {
    /// The command's name, as queued.
    name: String,
    /// What it runs: a SHA1 or a function's name (EVAL: the SHA1 of the
    /// binding whose source it sends, if any).
    procedure: Option<String>,
    text: String,
}

/// A pipeline's operations, summed up by the conventions' batch rules.
#[derive(Debug)]
// Metrics read only the operation and the procedure; spans, all of it.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) struct Batch {
    /// `db.operation.name`: `PIPELINE EVALSHA`, `MULTI`, or for a pipeline
    /// of one operation, that operation's command.
    pub(crate) operation: String,
    /// `db.stored_procedure.name`, when every operation runs the same one.
    pub(crate) procedure: Option<String>,
    /// `db.query.text`: the operations' texts, joined by `; ` (once, when
    /// they are all the same).
    pub(crate) text: String,
    /// `db.operation.batch.size`: `None` for a pipeline of one operation,
    /// which the conventions model as that operation alone.
    pub(crate) size: Option<usize>,
}

impl Batch {
    /// The summary of `commands`, run as a pipeline (`atomic`: in
    /// MULTI/EXEC). The SCRIPT LOADs that this library queues ahead of
    /// EVALSHAs are left out: they are not the program's operations.
    pub(crate) fn of(commands: &[Vec<&[u8]>], atomic: bool) -> Batch {
        let operations: Vec<Operation> = commands
            .iter()
            .filter(|cmd| !is_library_load(cmd))
            .map(|cmd| operation(cmd))
            .collect();
        let kind = if atomic { "MULTI" } else { "PIPELINE" };
        if let [single] = operations.as_slice() {
            return Batch {
                operation: single.name.clone(),
                procedure: single.procedure.clone(),
                text: single.text.clone(),
                size: None,
            };
        }
        let common = |field: fn(&Operation) -> &str| -> Option<&str> {
            let first = field(operations.first()?);
            operations
                .iter()
                .all(|operation| field(operation) == first)
                .then_some(first)
        };
        let operation = match common(|operation| &operation.name) {
            Some(name) => format!("{kind} {name}"),
            None => kind.to_owned(),
        };
        let procedure = common(|operation| operation.procedure.as_deref().unwrap_or(""))
            .filter(|procedure| !procedure.is_empty())
            .map(str::to_owned);
        let text = match common(|operation| &operation.text) {
            Some(text) => text.to_owned(),
            None => operations
                .iter()
                .map(|operation| operation.text.as_str())
                .collect::<Vec<_>>()
                .join("; "),
        };
        Batch {
            operation,
            procedure,
            text,
            size: Some(operations.len()),
        }
    }

    /// `PIPELINE EVALSHA 1a31...`: the span name, `{db.operation.name}
    /// {target}`, the target left out when the operations run different
    /// procedures or none.
    #[cfg(feature = "tracing")]
    pub(crate) fn span_name(&self) -> String {
        match &self.procedure {
            Some(procedure) => format!("{} {procedure}", self.operation),
            None => self.operation.clone(),
        }
    }
}

/// The values of a queued command: plain arguments as bytes (a cursor
/// argument, which script calls never hold, as an empty value).
pub(crate) fn args<'a>(args: impl Iterator<Item = Arg<&'a [u8]>>) -> Vec<&'a [u8]> {
    args.map(|arg| match arg {
        Arg::Simple(bytes) => bytes,
        _ => &[][..],
    })
    .collect()
}

/// One queued command as an operation: its name, what it runs, its text
/// with every value a `?` (for a script call, all but the SHA1 or function
/// name and numkeys).
fn operation(cmd: &[&[u8]]) -> Operation {
    let mut values = cmd.iter().copied();
    let name = String::from_utf8_lossy(values.next().unwrap_or_default()).into_owned();
    let mut text = name.clone();
    let procedure = match name.to_ascii_uppercase().as_str() {
        "EVALSHA" | "EVALSHA_RO" | "FCALL" | "FCALL_RO" => {
            let called = String::from_utf8_lossy(values.next().unwrap_or_default()).into_owned();
            let _ = write!(text, " {called}");
            push_numkeys(&mut text, values.next());
            Some(called)
        }
        "EVAL" | "EVAL_RO" => {
            let source = values.next().unwrap_or_default();
            text.push_str(" ?");
            push_numkeys(&mut text, values.next());
            crate::embedded::linked::SCRIPTS
                .iter()
                .find(|script| script.library().is_none() && script.source().as_bytes() == source)
                .map(|script| script.sha1().to_owned())
        }
        _ => None,
    };
    push_placeholders(&mut text, values.count());
    Operation {
        name,
        procedure,
        text,
    }
}

/// Appends a script call's numkeys, a count and no literal of the
/// program's, as it is (a `?` if it is not a number).
fn push_numkeys(text: &mut String, numkeys: Option<&[u8]>) {
    match numkeys.and_then(|n| std::str::from_utf8(n).ok()?.parse::<usize>().ok()) {
        Some(n) => {
            let _ = write!(text, " {n}");
        }
        None if numkeys.is_some() => text.push_str(" ?"),
        None => {}
    }
}

/// Whether `cmd` is a `SCRIPT LOAD` of the source of one of this program's
/// script bindings: the load `evalsha_script` and `Batch` queue before a
/// script's first EVALSHA.
fn is_library_load(cmd: &[&[u8]]) -> bool {
    let [script, load, source] = cmd else {
        return false;
    };
    script.eq_ignore_ascii_case(b"SCRIPT")
        && load.eq_ignore_ascii_case(b"LOAD")
        && crate::embedded::linked::SCRIPTS.iter().any(|known| {
            known.library().is_none()
                && known.source().len() == source.len()
                && known.source().as_bytes() == *source
        })
}

/// The server's error code of a failed pipeline: a failed command of a
/// pipeline comes wrapped, its code inside.
pub(crate) fn pipeline_error_code(error: &redis::RedisError) -> Option<String> {
    error
        .clone()
        .into_server_errors()
        .and_then(|errors| errors.first().map(|(_, error)| error.code().to_owned()))
        .or_else(|| error.code().map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::Batch;

    fn batch(commands: &[&[&str]], atomic: bool) -> Batch {
        let commands: Vec<Vec<&[u8]>> = commands
            .iter()
            .map(|cmd| cmd.iter().map(|arg| arg.as_bytes()).collect())
            .collect();
        Batch::of(&commands, atomic)
    }

    #[test]
    fn operations_of_one_command_name_the_batch_after_it() {
        let sha = "1a310444c860d989b7ddf9270150cf577190b43a";
        let summary = batch(
            &[
                &["EVALSHA", sha, "1", "k", "v"],
                &["EVALSHA", sha, "1", "k2", "v2"],
            ],
            true,
        );
        assert_eq!(summary.operation, "MULTI EVALSHA");
        assert_eq!(summary.procedure.as_deref(), Some(sha));
        assert_eq!(summary.size, Some(2));
        assert_eq!(summary.text, format!("EVALSHA {sha} 1 ? ?"));
        assert_eq!(summary.span_name(), format!("MULTI EVALSHA {sha}"));
    }

    #[test]
    fn mixed_operations_are_a_plain_pipeline_with_every_text() {
        let summary = batch(&[&["FCALL", "add", "1", "k", "3"], &["GET", "k"]], false);
        assert_eq!(summary.operation, "PIPELINE");
        assert_eq!(summary.procedure, None);
        assert_eq!(summary.size, Some(2));
        assert_eq!(summary.text, "FCALL add 1 ? ?; GET ?");
        assert_eq!(summary.span_name(), "PIPELINE");
    }

    #[test]
    fn one_operation_is_that_operation_and_none_is_an_empty_batch() {
        let one = batch(&[&["FCALL_RO", "count", "1", "k"]], false);
        assert_eq!((one.operation.as_str(), one.size), ("FCALL_RO", None));
        assert_eq!(one.span_name(), "FCALL_RO count");
        let none = batch(&[], false);
        assert_eq!((none.operation.as_str(), none.size), ("PIPELINE", Some(0)));
    }
}
