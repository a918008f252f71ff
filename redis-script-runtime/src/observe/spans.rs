//! Spans and events through `tracing` (feature `tracing`), with the
//! attribute names of OpenTelemetry's database conventions.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use tracing::field::Empty;
use tracing::{Level, Span};

use super::operation::{self, Batch};
use super::server::{self, Server};
use crate::embedded::script::Script;
use crate::error::{Error, ErrorKind};

/// The target of every span and event, for filters (`redis_script=info`).
const TARGET: &str = "redis_script";

/// Whether spans carry key and argument values: see [`record_values`](super::record_values).
static RECORD_VALUES: AtomicBool = AtomicBool::new(false);

pub(crate) fn set_record_values(on: bool) {
    RECORD_VALUES.store(on, Ordering::Relaxed);
}

/// The level of spans and events: see [`set_span_level`](super::set_span_level).
static LEVEL: AtomicU8 = AtomicU8::new(level_index(Level::INFO));

const fn level_index(level: Level) -> u8 {
    match level {
        Level::ERROR => 0,
        Level::WARN => 1,
        Level::INFO => 2,
        Level::DEBUG => 3,
        _ => 4,
    }
}

pub(crate) fn set_level(level: Level) {
    LEVEL.store(level_index(level), Ordering::Relaxed);
}

/// `tracing::span!` at the level chosen at run time: a span's level is part
/// of its callsite's static metadata, so there is one callsite per level.
macro_rules! span_at_level {
    ($($fields:tt)*) => {
        match LEVEL.load(Ordering::Relaxed) {
            0 => tracing::span!(target: TARGET, Level::ERROR, $($fields)*),
            1 => tracing::span!(target: TARGET, Level::WARN, $($fields)*),
            2 => tracing::span!(target: TARGET, Level::INFO, $($fields)*),
            3 => tracing::span!(target: TARGET, Level::DEBUG, $($fields)*),
            _ => tracing::span!(target: TARGET, Level::TRACE, $($fields)*),
        }
    };
}

/// `tracing::event!` at the level chosen at run time, as [`span_at_level`].
macro_rules! event_at_level {
    (parent: $parent:expr, $($fields:tt)*) => {
        match LEVEL.load(Ordering::Relaxed) {
            0 => tracing::event!(target: TARGET, parent: $parent, Level::ERROR, $($fields)*),
            1 => tracing::event!(target: TARGET, parent: $parent, Level::WARN, $($fields)*),
            2 => tracing::event!(target: TARGET, parent: $parent, Level::INFO, $($fields)*),
            3 => tracing::event!(target: TARGET, parent: $parent, Level::DEBUG, $($fields)*),
            _ => tracing::event!(target: TARGET, parent: $parent, Level::TRACE, $($fields)*),
        }
    };
}

/// The span of one call of `script` with `key_count` keys among its
/// `value_count` values, on the database `db`.
///
/// Field values are only computed when a subscriber wants the span (the
/// macro evaluates them after asking): the values, which need a closure,
/// the query text, the server.
pub(crate) fn call(
    script: &'static Script,
    key_count: usize,
    value_count: usize,
    db: i64,
    values: impl FnOnce() -> (String, String),
) -> Span {
    let operation = script.call_command();
    let procedure = operation::procedure(script);
    let span = span_at_level!(
        "redis_script.call",
        otel.name = %SpanName(operation, procedure),
        otel.kind = "client",
        otel.status_code = Empty,
        otel.status_description = Empty,
        db.system.name = "redis",
        db.namespace = namespace(db).as_str(),
        db.operation.name = operation,
        db.stored_procedure.name = procedure,
        db.query.text = operation::call_text(script, key_count, value_count).as_str(),
        db.response.status_code = Empty,
        error.type = Empty,
        server.address = server::current().map(|server| server.address),
        server.port = port(server::current()),
        redis_script.binding = script.name(),
        redis_script.file = script.file(),
        redis_script.library = script.library().map(|library| library.name()),
        redis_script.key_count = key_count,
        redis_script.keys = Empty,
        redis_script.args = Empty,
        redis_script.recovery = Empty,
        redis_script.applied = Empty,
    );
    if !span.is_disabled() && RECORD_VALUES.load(Ordering::Relaxed) {
        let (keys, args) = values();
        span.record("redis_script.keys", keys);
        span.record("redis_script.args", args);
    }
    span
}

/// The span of one pipeline run, described by `batch` (computed only for a
/// span that a subscriber wants), as [`call`]'s.
pub(crate) fn pipeline(batch: impl FnOnce() -> Batch, scripts: impl fmt::Display, db: i64) -> Span {
    let span = span_at_level!(
        "redis_script.pipeline",
        otel.name = Empty,
        otel.kind = "client",
        otel.status_code = Empty,
        otel.status_description = Empty,
        db.system.name = "redis",
        db.namespace = namespace(db).as_str(),
        db.operation.name = Empty,
        db.operation.batch.size = Empty,
        db.stored_procedure.name = Empty,
        db.query.text = Empty,
        db.response.status_code = Empty,
        error.type = Empty,
        server.address = server::current().map(|server| server.address),
        server.port = port(server::current()),
        redis_script.scripts = %scripts,
        redis_script.applied = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    let batch = batch();
    span.record("otel.name", batch.span_name());
    span.record("db.operation.name", batch.operation.as_str());
    // Only what is there: a formatter would write an empty field apart.
    if let Some(size) = batch.size {
        span.record("db.operation.batch.size", size);
    }
    if let Some(procedure) = &batch.procedure {
        span.record("db.stored_procedure.name", procedure.as_str());
    }
    span.record("db.query.text", batch.text.as_str());
    span
}

/// `db.namespace`: the database index, as text.
pub(crate) fn namespace(db: i64) -> String {
    db.to_string()
}

/// `server.port`, for a server reached over TCP.
fn port(server: Option<Server>) -> Option<u64> {
    server.and_then(|server| server.port).map(u64::from)
}

/// Records a recovery from a missing script or library: a field of the span,
/// and an event inside it.
pub(crate) fn recovery(span: &Span, script: &Script, how: &'static str) {
    span.record("redis_script.recovery", how);
    let missing = match script.library() {
        Some(_) => "library",
        None => "script",
    };
    event_at_level!(
        parent: span,
        { "redis_script.recovery" = how },
        "{missing} not on the server: recovering with {how}",
    );
}

/// Records a failure on `span`: OpenTelemetry's error status, the server's
/// error code, the error's type (that code, else the error's class) and
/// whether it was applied.
pub(crate) fn failure(span: &Span, error: &Error) {
    if span.is_disabled() {
        return;
    }
    record_error(span, Redacted(error), error.code(), error.class().as_str());
    span.record("redis_script.applied", applied_name(error));
}

/// Records a failed pipeline on `span`, as [`failure`] does for a call.
pub(crate) fn pipeline_failure(span: &Span, error: &redis::RedisError) {
    if span.is_disabled() {
        return;
    }
    let code = operation::pipeline_error_code(error);
    let class = crate::error::class(error, false);
    record_error(span, error, code.as_deref(), class.as_str());
}

fn record_error(span: &Span, description: impl fmt::Display, code: Option<&str>, class: &str) {
    span.record("otel.status_code", "ERROR");
    span.record(
        "otel.status_description",
        tracing::field::display(description),
    );
    if let Some(code) = code {
        span.record("db.response.status_code", code);
    }
    span.record("error.type", code.unwrap_or(class));
}

fn applied_name(error: &Error) -> &'static str {
    match error.applied() {
        crate::error::Applied::No => "no",
        crate::error::Applied::Maybe => "maybe",
        crate::error::Applied::Yes => "yes",
    }
}

/// `EVALSHA 1a31...`: OpenTelemetry's `{db.operation.name} {target}`, the
/// target being the stored procedure.
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
