//! Spans and events through `tracing` (feature `tracing`), with the
//! attribute names of OpenTelemetry's database conventions.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use tracing::Span;
use tracing::field::Empty;

use crate::embedded::script::Script;
use crate::error::{Error, ErrorKind};

/// The target of every span and event, for filters (`redis_script=info`).
const TARGET: &str = "redis_script";

/// Whether spans carry key and argument values: see [`record_values`](super::record_values).
static RECORD_VALUES: AtomicBool = AtomicBool::new(false);

pub(crate) fn set_record_values(on: bool) {
    RECORD_VALUES.store(on, Ordering::Relaxed);
}

/// The span of one call of `script` with `key_count` keys, sent first as
/// `operation`.
///
/// Field values are only computed when a subscriber wants the span, which
/// is why the database index and the values come as closures.
pub(crate) fn call(
    script: &'static Script,
    operation: &'static str,
    key_count: usize,
    db: impl FnOnce() -> i64,
    values: impl FnOnce() -> (String, String),
) -> Span {
    let span = tracing::info_span!(
        target: TARGET,
        "redis_script.call",
        otel.name = %SpanName(operation, script.name()),
        otel.kind = "client",
        otel.status_code = Empty,
        otel.status_description = Empty,
        db.system.name = "redis",
        db.namespace = db(),
        db.operation.name = operation,
        db.stored_procedure.name = script.name(),
        redis_script.file = script.file(),
        redis_script.sha1 = Empty,
        redis_script.library = Empty,
        redis_script.function = Empty,
        redis_script.key_count = key_count,
        redis_script.keys = Empty,
        redis_script.args = Empty,
        redis_script.recovery = Empty,
        redis_script.applied = Empty,
        error.type = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    match (script.library(), script.function_name()) {
        (Some(library), Some(function)) => {
            span.record("redis_script.library", library.name());
            span.record("redis_script.function", function);
        }
        _ => {
            span.record("redis_script.sha1", script.sha1());
        }
    }
    if RECORD_VALUES.load(Ordering::Relaxed) {
        let (keys, args) = values();
        span.record("redis_script.keys", keys);
        span.record("redis_script.args", args);
    }
    span
}

/// The span of one pipeline run: `operation` is `PIPELINE` or `MULTI`.
/// The closures, as in [`call`], run only for a span a subscriber wants.
pub(crate) fn pipeline(
    operation: &'static str,
    commands: impl FnOnce() -> usize,
    scripts: impl fmt::Display,
    db: impl FnOnce() -> i64,
) -> Span {
    tracing::info_span!(
        target: TARGET,
        "redis_script.pipeline",
        otel.name = operation,
        otel.kind = "client",
        otel.status_code = Empty,
        otel.status_description = Empty,
        db.system.name = "redis",
        db.namespace = db(),
        db.operation.name = operation,
        db.operation.batch.size = commands(),
        redis_script.scripts = %scripts,
        redis_script.applied = Empty,
        error.type = Empty,
    )
}

/// Records a recovery from a missing script or library: a field of the span,
/// and an event inside it.
pub(crate) fn recovery(span: &Span, script: &Script, how: &'static str) {
    span.record("redis_script.recovery", how);
    tracing::info!(
        target: TARGET,
        parent: span,
        { "redis_script.recovery" = how },
        "{} not on the server: recovering with {how}",
        match script.library() {
            Some(_) => "library",
            None => "script",
        },
    );
}

/// Records a failure on `span`: OpenTelemetry's error status, the error's
/// type (the server's code, else its class) and whether it was applied.
pub(crate) fn failure(span: &Span, error: &Error) {
    if span.is_disabled() {
        return;
    }
    span.record("otel.status_code", "ERROR");
    span.record(
        "otel.status_description",
        tracing::field::display(Redacted(error)),
    );
    span.record("error.type", error.code().unwrap_or(error.class().as_str()));
    span.record("redis_script.applied", applied_name(error));
}

/// Records a failed pipeline on `span`, as [`failure`] does for a call.
pub(crate) fn pipeline_failure(span: &Span, error: &redis::RedisError) {
    if span.is_disabled() {
        return;
    }
    // A failed command of a pipeline comes wrapped, its code inside.
    let first_code = error
        .clone()
        .into_server_errors()
        .and_then(|errors| errors.first().map(|(_, error)| error.code().to_owned()));
    let class = crate::error::class(error, false);
    span.record("otel.status_code", "ERROR");
    span.record("otel.status_description", tracing::field::display(error));
    span.record(
        "error.type",
        first_code.as_deref().unwrap_or(class.as_str()),
    );
}

fn applied_name(error: &Error) -> &'static str {
    match error.applied() {
        crate::error::Applied::No => "no",
        crate::error::Applied::Maybe => "maybe",
        crate::error::Applied::Yes => "yes",
    }
}

/// `EVALSHA acquire_lock`: OpenTelemetry's `{db.operation.name} {target}`.
struct SpanName(&'static str, &'static str);

impl fmt::Display for SpanName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0, self.1)
    }
}

/// An error's message without the values it may quote: the keys of a
/// cross-slot refusal, and the reply that did not convert. (The server's own
/// message is kept: it quotes no values unless the script put them there.)
struct Redacted<'a>(&'a Error);

impl fmt::Display for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.kind() {
            ErrorKind::CrossSlot { keys } => {
                write!(f, "the {} keys are in different hash slots:", keys.len())?;
                for (_, slot) in keys {
                    write!(f, " {slot}")?;
                }
                Ok(())
            }
            ErrorKind::Reply { expected, .. } => {
                write!(f, "the reply does not fit the declared type `{expected}`")
            }
            _ => fmt::Display::fmt(self.0, f),
        }
    }
}
