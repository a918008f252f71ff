//! Counters and histograms through the `metrics` facade (feature `metrics`).
//! The names and labels are documented in the module [`observe`](super).

use std::time::Duration;

use metrics::{
    Key, Level, Metadata, Unit, counter, describe_counter, describe_histogram, histogram,
};

use crate::embedded::error_class::ErrorClass;
use crate::embedded::script::Script;

pub(crate) const CALLS: &str = "redis_script_calls_total";
pub(crate) const ERRORS: &str = "redis_script_errors_total";
pub(crate) const RECOVERIES: &str = "redis_script_recoveries_total";
pub(crate) const CALL_DURATION: &str = "redis_script_call_duration_seconds";
pub(crate) const PIPELINES: &str = "redis_script_pipelines_total";
pub(crate) const PIPELINE_ERRORS: &str = "redis_script_pipeline_errors_total";
pub(crate) const PIPELINE_DURATION: &str = "redis_script_pipeline_duration_seconds";

/// What `counter!` would say of these metrics' origin.
static METADATA: Metadata<'static> =
    Metadata::new(module_path!(), Level::INFO, Some(module_path!()));

// The metrics of every call build their keys from the script's own label,
// borrowed: `counter!` with a label would allocate a list of labels on every
// call, recorder or not. Errors, rarer, take the macros.

/// The key of the metric `name` of `script`, allocating nothing.
fn key(name: &'static str, script: &'static Script) -> Key {
    Key::from_static_parts(name, script.metric_labels())
}

pub(crate) fn call(script: &'static Script) {
    let key = key(CALLS, script);
    metrics::with_recorder(|recorder| recorder.register_counter(&key, &METADATA)).increment(1);
}

pub(crate) fn recovery(script: &'static Script) {
    let key = key(RECOVERIES, script);
    metrics::with_recorder(|recorder| recorder.register_counter(&key, &METADATA)).increment(1);
}

pub(crate) fn error(script: &Script, class: ErrorClass) {
    counter!(ERRORS, "script" => script.name(), "kind" => class.as_str()).increment(1);
}

pub(crate) fn call_duration(script: &'static Script, duration: Duration) {
    let key = key(CALL_DURATION, script);
    metrics::with_recorder(|recorder| recorder.register_histogram(&key, &METADATA))
        .record(duration.as_secs_f64());
}

pub(crate) fn pipeline(atomic: bool, duration: Duration, error: Option<ErrorClass>) {
    let mode = if atomic { "multi" } else { "pipeline" };
    counter!(PIPELINES, "mode" => mode).increment(1);
    if let Some(class) = error {
        counter!(PIPELINE_ERRORS, "mode" => mode, "kind" => class.as_str()).increment(1);
    }
    histogram!(PIPELINE_DURATION, "mode" => mode).record(duration.as_secs_f64());
}

pub(crate) fn describe() {
    describe_counter!(CALLS, "Script binding calls, made or queued in a pipeline");
    describe_counter!(ERRORS, "Failed script binding calls, by error kind");
    describe_counter!(
        RECOVERIES,
        "Script calls that found their script or library missing and sent it again"
    );
    describe_histogram!(
        CALL_DURATION,
        Unit::Seconds,
        "Duration of script binding calls, recoveries included"
    );
    describe_counter!(PIPELINES, "Pipelines run through ScriptPipeline::observed");
    describe_counter!(
        PIPELINE_ERRORS,
        "Pipelines whose query failed, by error kind"
    );
    describe_histogram!(
        PIPELINE_DURATION,
        Unit::Seconds,
        "Duration of pipelines run through ScriptPipeline::observed"
    );
}
