//! The histogram of OpenTelemetry's database conventions, and the one
//! counter they have no place for, through the `metrics` facade (feature
//! `metrics`). The names and labels are documented in the module
//! [`observe`](super).

use std::collections::HashMap;
use std::sync::{LazyLock, RwLock};
use std::time::Duration;

use metrics::{Key, Label, Level, Metadata, Unit, describe_counter, describe_histogram};

use super::operation::{self, Batch};
use super::server;
use crate::embedded::script::Script;

/// `db.client.operation.duration`: the duration of each operation, a call
/// or a pipeline, in seconds.
pub(crate) const OPERATION_DURATION: &str = "db.client.operation.duration";
/// Calls that found their script or library missing and sent it again.
pub(crate) const RECOVERIES: &str = "redis_script_recoveries_total";

/// The bucket boundaries, in seconds, that OpenTelemetry's conventions
/// advise for the histogram `db.client.operation.duration`. The `metrics`
/// facade leaves buckets to the exporter: give it these (see the module
/// docs for metrics-exporter-prometheus).
pub const DURATION_BUCKETS: [f64; 9] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0];

/// What `counter!` would say of these metrics' origin.
static METADATA: Metadata<'static> =
    Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

/// The labels of a successful call of a script on a database with the
/// server declared at a generation of [`server`], built once and kept for
/// the rest of the program, so that a warm call's duration allocates
/// nothing: `Key::from_parts` would allocate a label list on every call,
/// recorder or not. The key: the script's address, the database, the
/// server's generation. (Failures, rarer, build their labels each time.)
type LabelCache = HashMap<(usize, i64, u64), &'static [Label]>;

static CALL_LABELS: LazyLock<RwLock<LabelCache>> = LazyLock::new(Default::default);

/// A call's labels with no error: from the cache, or built and kept.
fn success_labels(script: &'static Script, db: i64) -> &'static [Label] {
    let id = (
        std::ptr::from_ref(script) as usize,
        db,
        server::generation(),
    );
    let cached = CALL_LABELS
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&id)
        .copied();
    if let Some(labels) = cached {
        return labels;
    }
    let labels: &'static [Label] = Vec::leak(call_labels(script, db, None));
    CALL_LABELS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(id, labels);
    labels
}

/// The labels of a call of `script`, with `error`'s if it failed.
fn call_labels(script: &'static Script, db: i64, error: Option<ErrorLabels>) -> Vec<Label> {
    let mut labels = vec![
        Label::from_static_parts("db.operation.name", script.call_command()),
        Label::from_static_parts("db.stored_procedure.name", operation::procedure(script)),
        Label::from_static_parts("redis_script.binding", script.name()),
    ];
    push_common(&mut labels, db, error);
    labels
}

/// What a failure adds to the labels: `error.type` and, for an error the
/// server replied, `db.response.status_code`.
pub(crate) struct ErrorLabels {
    pub(crate) error_type: String,
    pub(crate) status_code: Option<String>,
}

/// The labels every operation has: the system, the database, the server
/// where declared, and a failure's.
fn push_common(labels: &mut Vec<Label>, db: i64, error: Option<ErrorLabels>) {
    labels.push(Label::from_static_parts("db.system.name", "redis"));
    labels.push(Label::new("db.namespace", db.to_string()));
    if let Some(server) = server::current() {
        labels.push(Label::from_static_parts("server.address", server.address));
        if let Some(port) = server.port {
            labels.push(Label::new("server.port", port.to_string()));
        }
    }
    if let Some(error) = error {
        labels.push(Label::new("error.type", error.error_type));
        if let Some(code) = error.status_code {
            labels.push(Label::new("db.response.status_code", code));
        }
    }
}

fn record_duration(key: &Key, duration: Duration) {
    metrics::with_recorder(|recorder| recorder.register_histogram(key, &METADATA))
        .record(duration.as_secs_f64());
}

/// Records the duration of a call of `script` on the database `db`.
pub(crate) fn call_duration(
    script: &'static Script,
    db: i64,
    duration: Duration,
    error: Option<ErrorLabels>,
) {
    let key = match error {
        None => Key::from_static_parts(OPERATION_DURATION, success_labels(script, db)),
        Some(error) => Key::from_parts(OPERATION_DURATION, call_labels(script, db, Some(error))),
    };
    record_duration(&key, duration);
}

/// Records the duration of a pipeline run: one operation, as the
/// conventions count a batch.
pub(crate) fn pipeline_duration(
    batch: &Batch,
    db: i64,
    duration: Duration,
    error: Option<ErrorLabels>,
) {
    let mut labels = vec![Label::new("db.operation.name", batch.operation.clone())];
    if let Some(procedure) = &batch.procedure {
        labels.push(Label::new("db.stored_procedure.name", procedure.clone()));
    }
    push_common(&mut labels, db, error);
    record_duration(&Key::from_parts(OPERATION_DURATION, labels), duration);
}

pub(crate) fn recovery(script: &'static Script) {
    let key = Key::from_static_parts(RECOVERIES, script.metric_labels());
    metrics::with_recorder(|recorder| recorder.register_counter(&key, &METADATA)).increment(1);
}

pub(crate) fn describe() {
    describe_histogram!(
        OPERATION_DURATION,
        Unit::Seconds,
        "Duration of database client operations"
    );
    describe_counter!(
        RECOVERIES,
        "Script calls that found their script or library missing and sent it again"
    );
}
