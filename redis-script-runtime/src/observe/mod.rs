//! What the runtime tells about the calls it makes: counts that need no
//! feature, spans (feature `tracing`) and metrics (feature `metrics`), each
//! named by the script's binding.
//!
//! # Counts, always on
//!
//! Every [`Script`](crate::Script) counts its calls, NOSCRIPT recoveries
//! and errors by [`ErrorClass`](crate::ErrorClass), read with
//! [`Script::stats`](crate::Script::stats): a few relaxed atomic additions
//! per call, no allocation, no feature. For a health endpoint, walk [`registry::scripts`](crate::registry::scripts):
//!
//! ```ignore
//! for script in redis_script::registry::scripts() {
//!     let stats = script.stats();
//!     println!("{} calls={} errors={} recoveries={}",
//!         script.name(), stats.calls(), stats.errors(), stats.recoveries());
//! }
//! ```
//!
//! # Spans (feature `tracing`)
//!
//! Each call of a binding through [`invoke`](crate::Invocation::invoke) or
//! [`invoke_async`](crate::Invocation::invoke_async), on any connection
//! (single server or cluster), runs in one INFO span named
//! `redis_script.call`, with target `redis_script`. Its fields follow
//! OpenTelemetry's database semantic conventions where they have a name for
//! the thing, and are prefixed `redis_script.` where they do not:
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `EVALSHA acquire_lock`: the operation and the binding, the span name an OpenTelemetry exporter uses |
//! | `otel.kind` | `client` |
//! | `db.system.name` | `redis` (also for Valkey, which OpenTelemetry has no name for) |
//! | `db.namespace` | the connection's database index |
//! | `db.operation.name` | the command sent first: `EVALSHA`, `EVALSHA_RO`, `FCALL` or `FCALL_RO` |
//! | `db.stored_procedure.name` | the binding's name |
//! | `redis_script.file` | the Lua file, as the attribute names it |
//! | `redis_script.sha1` | the script's SHA1 (scripts only) |
//! | `redis_script.library`, `redis_script.function` | the library and function (functions only) |
//! | `redis_script.key_count` | how many keys the call passes |
//! | `redis_script.recovery` | set when the script or library was missing (or, for FCALL_RO, there in a version without the function's `no-writes`): `EVAL`, `SCRIPT LOAD` or `FUNCTION LOAD` |
//! | `otel.status_code` | `ERROR` when the call failed |
//! | `otel.status_description` | the error's message, without key values or the refused reply |
//! | `error.type` | the server's error code (`ERR`, `BUSY`, `CROSSSLOT`, ...), else the error's [class](crate::ErrorClass) (`timeout`, `reply`, ...) |
//! | `redis_script.applied` | [`Error::applied`](crate::Error::applied): `no`, `maybe` or `yes` |
//!
//! A recovery is also an INFO event inside the span. The span has no
//! `server.address`: redis-rs's connections do not tell their peer; record
//! it on a span of your own around the calls where you know it.
//!
//! Key and argument values are never recorded, because they may hold
//! secrets (tokens, passwords), unless the program opts in with
//! `record_values(true)` (feature `tracing`); then `redis_script.keys` and `redis_script.args` hold
//! them, as text.
//!
//! A pipeline run through [`ScriptPipeline::observed`](crate::ScriptPipeline::observed),
//! and each run of a [`Batch`](crate::Batch), runs in one INFO span
//! `redis_script.pipeline`, with `db.operation.name` `PIPELINE` (or `MULTI`
//! for an atomic one), `db.operation.batch.size` (the
//! commands queued, SCRIPT LOADs included), `redis_script.scripts` (what it
//! calls, each once, in order: a script's Lua file, a function's name; a
//! queued EVALSHA tells its script apart, not which of the bindings of one
//! file queued it) and the error fields above.
//!
//! With the feature on and no subscriber listening, a call checks one
//! cached flag and builds nothing: the field values are computed only for
//! a subscriber that wants the span. `cargo run --example tracing` prints
//! the spans of a few calls. To export them over OpenTelemetry, add a
//! `tracing-opentelemetry` layer to the subscriber; the `otel.*` fields set
//! the exported span's name, kind and status.
//!
//! # Metrics (feature `metrics`)
//!
//! Through the [`metrics`](https://docs.rs/metrics) facade, to whichever
//! recorder the program installs (Prometheus, StatsD, OpenTelemetry, ...):
//!
//! | metric | kind | labels | counts |
//! |---|---|---|---|
//! | `redis_script_calls_total` | counter | `script` | calls made, and calls queued in a pipeline |
//! | `redis_script_errors_total` | counter | `script`, `kind` | failed calls, by [`ErrorClass::as_str`](crate::ErrorClass::as_str) |
//! | `redis_script_recoveries_total` | counter | `script` | calls that found their script or library missing and sent it again |
//! | `redis_script_call_duration_seconds` | histogram | `script` | each call's duration, recovery included |
//! | `redis_script_pipelines_total` | counter | `mode` | pipelines run through `observed()`, and batch runs: `mode` is `pipeline` or `multi` |
//! | `redis_script_pipeline_errors_total` | counter | `mode`, `kind` | those whose query failed (for a batch: whose connection failed; each call's error counts under `redis_script_errors_total`) |
//! | `redis_script_pipeline_duration_seconds` | histogram | `mode` | their duration |
//!
//! `script` is the binding's name: give bindings distinct names, or their
//! counts add up. `describe_metrics()` (feature `metrics`) registers each metric's unit and
//! description with the recorder.
//!
//! The counts of [`Script::stats`](crate::Script::stats) and these metrics
//! count the same events.

// Every child names the others by their own paths (`super::spans::call`),
// never through this file, which only declares them and re-exports their
// public part: so the observation's files import one another downward only.
mod call;
#[cfg(feature = "metrics")]
mod metrics;
mod pipeline;
mod scope;
#[cfg(feature = "tracing")]
mod spans;

// Defined with the counters inside each `Script`, one floor down.
pub use crate::embedded::counters::ScriptStats;
pub(crate) use call::{
    CallObservation, RECOVERY_EVAL, RECOVERY_FUNCTION_LOAD, RECOVERY_SCRIPT_LOAD, failed, queued,
};
pub use pipeline::ObservedPipeline;
pub(crate) use pipeline::Run as PipelineRun;

/// Whether spans record the values of keys and arguments
/// (`redis_script.keys`, `redis_script.args`), for every call from now on;
/// off by default, because values may hold secrets. Turn it on only where
/// the spans' destination may see them, e.g. while debugging.
#[cfg(feature = "tracing")]
#[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
pub fn record_values(on: bool) {
    spans::set_record_values(on);
}

/// Describes each metric (unit, help text) to the installed recorder; call
/// it once after installing one. Recorders that show descriptions, such as
/// Prometheus's, then list them.
#[cfg(feature = "metrics")]
#[cfg_attr(docsrs, doc(cfg(feature = "metrics")))]
pub fn describe_metrics() {
    metrics::describe();
}
