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
//! Spans and metrics follow OpenTelemetry's semantic conventions for
//! database clients and for Redis, version 1.44.0 (`docs/db/database-spans.md`,
//! `docs/db/database-metrics.md`, `docs/db/redis.md`), and name what the
//! conventions have no name for `redis_script.*`.
//!
//! Each call of a binding through [`invoke`](crate::Invocation::invoke) or
//! [`invoke_async`](crate::Invocation::invoke_async), on any connection
//! (single server or cluster), runs in one span named `redis_script.call`,
//! with target `redis_script`, at level INFO unless `set_span_level` says
//! otherwise:
//!
//! | field | value |
//! |---|---|
//! | `otel.name` | `{db.operation.name} {db.stored_procedure.name}`: `EVALSHA 1a31...`, `FCALL inventory_add`; the span name an OpenTelemetry exporter uses |
//! | `otel.kind` | `client` |
//! | `db.system.name` | `redis` (also for Valkey, which OpenTelemetry has no name for) |
//! | `db.namespace` | the connection's database index, as a string (`"0"`): the index redis-rs's connection reports, the one it was opened with (a `SELECT` sent by hand is not seen) |
//! | `db.operation.name` | the call's command: `EVALSHA`, `EVALSHA_RO`, `FCALL` or `FCALL_RO` (also when a recovery sent `EVAL` or loaded the script) |
//! | `db.stored_procedure.name` | the script's SHA1, or the function's name |
//! | `db.query.text` | the command with its keys and arguments as `?`: `EVALSHA 1a31... 1 ? ? ?` (numkeys stays: it is a count, not a value) |
//! | `server.address`, `server.port` | the server declared with `set_server` or `set_server_from`; absent otherwise (see below) |
//! | `redis_script.binding` | the Rust binding's name |
//! | `redis_script.file` | the Lua file, as the attribute names it |
//! | `redis_script.library` | the library (functions only) |
//! | `redis_script.key_count` | how many keys the call passes |
//! | `redis_script.recovery` | set when the script or library was missing (or, for FCALL_RO, there in a version without the function's `no-writes`): `EVAL`, `SCRIPT LOAD` or `FUNCTION LOAD` |
//! | `otel.status_code` | `ERROR` when the call failed |
//! | `otel.status_description` | the error's message, without key values or the refused reply |
//! | `db.response.status_code` | the server's error code (`ERR`, `NOSCRIPT`, `BUSY`, `WRONGTYPE`, `OOM`, ...), when the server replied with an error |
//! | `error.type` | that code; for a failure without one, the error's [class](crate::ErrorClass) (`timeout`, `io`, `reply`, `cross_slot`, ...) |
//! | `redis_script.applied` | [`Error::applied`](crate::Error::applied): `no`, `maybe` or `yes` |
//!
//! A recovery is also an event inside the span, at the span's level.
//!
//! `server.address` and `server.port`: redis-rs's connections do not tell
//! their peer, and a binding's `invoke` takes any `ConnectionLike`, so the
//! runtime cannot find them out. A program that talks to one server (or one
//! cluster, by its configured address) declares it once, at start-up:
//! `redis_script::observe::set_server_from(client.get_connection_info())`;
//! every span and metric from then on carries it (a Unix socket's path as
//! the address, without a port). A program that talks to several servers
//! through the same bindings should not declare one: record the address on
//! a span of its own around the calls where it knows it.
//!
//! Key and argument values are never recorded, because they may hold
//! secrets (tokens, passwords), unless the program opts in with
//! `record_values(true)`; then `redis_script.keys` and
//! `redis_script.args` hold them, as text (`db.query.text` keeps its `?`).
//!
//! A pipeline run through [`ScriptPipeline::observed`](crate::ScriptPipeline::observed),
//! and each run of a [`Batch`](crate::Batch), runs in one span
//! `redis_script.pipeline`, modelled as the conventions model a batch, with
//! the operations the program queued (the SCRIPT LOADs that
//! `evalsha_script` and `Batch` add are not counted):
//!
//! | field | value |
//! |---|---|
//! | `db.operation.name` | `PIPELINE EVALSHA` when every operation has the same command, else `PIPELINE`; `MULTI EVALSHA` or `MULTI` for an atomic pipeline; for a pipeline of one operation, that operation's command (`EVALSHA`) |
//! | `db.stored_procedure.name` | when every operation runs the same script or function |
//! | `otel.name` | `{db.operation.name} {db.stored_procedure.name}`, or `{db.operation.name}` alone when the operations run different ones |
//! | `db.operation.batch.size` | how many operations, when two or more (absent for one, which the conventions model as a single operation) |
//! | `db.query.text` | each operation's text, joined by `; `, or the text once when all are the same; a command of the program's (`INCR k`) as `INCR ?` |
//! | `redis_script.scripts` | what it calls, each once, in order: a script's Lua file, a function's name |
//!
//! and `otel.kind`, `db.system.name`, `db.namespace`, `server.*` and the
//! failure fields as above (a failed pipeline's `db.response.status_code`
//! is the code of its first failed command).
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
//! | metric | kind | labels |
//! |---|---|---|
//! | `db.client.operation.duration` | histogram, seconds | `db.system.name` (`redis`), `db.operation.name`, `db.stored_procedure.name`, `db.namespace`, `server.address` and `server.port` when declared, `error.type` and `db.response.status_code` on failure; for a call also `redis_script.binding` |
//! | `redis_script_recoveries_total` | counter | `script` (the binding's name) |
//!
//! `db.client.operation.duration` is the conventions' one metric: each call
//! through `invoke` is one operation, recovery included; each observed
//! pipeline or batch run is one operation too, its labels those of its
//! span. Calls queued in a pipeline are counted, with their errors, per
//! binding by [`Script::stats`](crate::Script::stats), which needs no
//! feature.
//!
//! `redis_script_recoveries_total` is kept because the conventions have no
//! place for it: a call that found its script or library missing (a
//! `SCRIPT FLUSH`, a restart, a failover) still succeeds, so only this
//! counter shows the script cache being lost. The former per-binding call
//! and error counters and the pipeline metrics are gone: the histogram's
//! count, by `error.type`, tells the same.
//!
//! The conventions advise the histogram's bucket boundaries
//! `DURATION_BUCKETS` (`[0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]`).
//! The `metrics` facade has no way to advise them: the exporter sets them.
//! With metrics-exporter-prometheus, for example (which writes the name as
//! `db_client_operation_duration` and the labels' dots as underscores):
//!
//! ```ignore
//! use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
//!
//! PrometheusBuilder::new()
//!     .set_buckets_for_metric(
//!         Matcher::Full("db.client.operation.duration".into()),
//!         &redis_script::observe::DURATION_BUCKETS,
//!     )?
//!     .install()?;
//! redis_script::observe::describe_metrics();
//! ```
//!
//! `describe_metrics()` (feature `metrics`) registers each metric's unit and
//! description with the recorder.

// Every child names the others by their own paths (`super::spans::call`),
// never through this file, which only declares them and re-exports their
// public part: so the observation's files import one another downward only.
mod call;
#[cfg(feature = "metrics")]
mod metrics;
#[cfg(any(feature = "tracing", feature = "metrics"))]
mod operation;
mod pipeline;
mod scope;
#[cfg(any(feature = "tracing", feature = "metrics"))]
mod server;
#[cfg(feature = "tracing")]
mod spans;

// Defined with the counters inside each `Script`, one floor down.
pub use crate::embedded::counters::ScriptStats;
pub(crate) use call::{
    CallObservation, RECOVERY_EVAL, RECOVERY_FUNCTION_LOAD, RECOVERY_SCRIPT_LOAD, failed, queued,
};
#[cfg(feature = "metrics")]
#[cfg_attr(docsrs, doc(cfg(feature = "metrics")))]
pub use metrics::DURATION_BUCKETS;
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

/// The level of every span and event from now on: INFO unless set. A
/// subscriber's filter (`redis_script=debug`, an `EnvFilter`) then decides
/// whether it sees them, as for any other span.
#[cfg(feature = "tracing")]
#[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
pub fn set_span_level(level: tracing::Level) {
    spans::set_level(level);
}

/// Declares the server every call goes to, for `server.address` and
/// `server.port` on spans and metrics from now on: `address` a host name,
/// an IP address or a Unix socket's path, `port` the TCP port (`None` for a
/// socket). For a program that talks to one server (or one cluster); see
/// the module docs.
#[cfg(any(feature = "tracing", feature = "metrics"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "tracing", feature = "metrics"))))]
pub fn set_server(address: &str, port: Option<u16>) {
    server::set(Some((address, port)));
}

/// Declares the server a redis-rs client connects to, as [`set_server`]
/// does: `set_server_from(client.get_connection_info())`. Returns whether
/// its address was one this version knows how to read (TCP, TLS, Unix
/// socket); if not, nothing changes.
#[cfg(any(feature = "tracing", feature = "metrics"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "tracing", feature = "metrics"))))]
pub fn set_server_from(info: &redis::ConnectionInfo) -> bool {
    match server::of(info.addr()) {
        Some((address, port)) => {
            server::set(Some((&address, port)));
            true
        }
        None => false,
    }
}

/// Forgets the server declared with [`set_server`]: spans and metrics from
/// now on have no `server.address` and `server.port`.
#[cfg(any(feature = "tracing", feature = "metrics"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "tracing", feature = "metrics"))))]
pub fn clear_server() {
    server::set(None);
}
