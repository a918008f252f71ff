//! The observation of one call of a binding: its count, its span, its
//! metrics, from its start to its outcome; and the counts of a call queued
//! in a pipeline, and of a failed one.

#[cfg(feature = "metrics")]
use super::metrics;
use super::scope::{self, Spanned};
#[cfg(feature = "tracing")]
use super::spans;
use crate::embedded::script::Script;
use crate::error::Error;

/// Recovery of a missing script: sent again with `EVAL`.
pub(crate) const RECOVERY_EVAL: &str = "EVAL";
/// Recovery of a missing script: `SCRIPT LOAD` then the call again.
pub(crate) const RECOVERY_SCRIPT_LOAD: &str = "SCRIPT LOAD";
/// Recovery of a missing function: `FUNCTION LOAD REPLACE` then the call again.
pub(crate) const RECOVERY_FUNCTION_LOAD: &str = "FUNCTION LOAD";

/// One call being observed, from its start to [`finish`](Self::finish).
pub(crate) struct CallObservation {
    script: &'static Script,
    #[cfg(feature = "metrics")]
    started: std::time::Instant,
    #[cfg(feature = "metrics")]
    db: i64,
    #[cfg(feature = "tracing")]
    span: tracing::Span,
}

impl CallObservation {
    /// Counts a call of `script` with `key_count` keys among its
    /// `value_count` values, about to be sent as its `call_command`, and
    /// opens its span. `db` (the connection's database) is asked only with
    /// a feature on, `values` only for a span that a subscriber wants.
    #[cfg_attr(
        not(all(feature = "tracing", feature = "metrics")),
        allow(unused_variables)
    )]
    pub(crate) fn start(
        script: &'static Script,
        key_count: usize,
        value_count: usize,
        db: impl FnOnce() -> i64,
        values: impl FnOnce() -> (String, String),
    ) -> CallObservation {
        script.counters().call();
        #[cfg(any(feature = "tracing", feature = "metrics"))]
        let db = db();
        CallObservation {
            script,
            #[cfg(feature = "metrics")]
            started: std::time::Instant::now(),
            #[cfg(feature = "metrics")]
            db,
            #[cfg(feature = "tracing")]
            span: spans::call(script, key_count, value_count, db, values),
        }
    }

    /// Runs `f` inside the call's span.
    pub(crate) fn in_scope<R>(&self, f: impl FnOnce() -> R) -> R {
        scope::in_scope(self, f)
    }

    /// `future`, run inside the call's span.
    #[cfg(feature = "aio")]
    pub(crate) fn instrument<F: std::future::Future>(
        &self,
        future: F,
    ) -> impl std::future::Future<Output = F::Output> {
        scope::instrument(self, future)
    }

    /// Counts a recovery, sent as `how` (one of the `RECOVERY_` names).
    #[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
    pub(crate) fn recovery(&self, how: &'static str) {
        self.script.counters().recovery();
        #[cfg(feature = "metrics")]
        metrics::recovery(self.script);
        #[cfg(feature = "tracing")]
        spans::recovery(&self.span, self.script, how);
    }

    /// Ends the observation with the call's outcome.
    pub(crate) fn finish<T>(self, result: &Result<T, Error>) {
        if let Err(error) = result {
            failed(self.script, error);
            #[cfg(feature = "tracing")]
            spans::failure(&self.span, error);
        }
        #[cfg(feature = "metrics")]
        metrics::call_duration(
            self.script,
            self.db,
            self.started.elapsed(),
            result.as_ref().err().map(|error| metrics::ErrorLabels {
                error_type: error.code().unwrap_or(error.class().as_str()).to_owned(),
                status_code: error.code().map(str::to_owned),
            }),
        );
    }
}

impl Spanned for CallObservation {
    #[cfg(feature = "tracing")]
    fn span(&self) -> &tracing::Span {
        &self.span
    }
}

/// Counts a call queued in a pipeline. (The pipeline's run is the
/// operation that spans and metrics see.)
pub(crate) fn queued(script: &'static Script) {
    script.counters().call();
}

/// Counts a failed call of `script`.
pub(crate) fn failed(script: &'static Script, error: &Error) {
    script.counters().error(error.class());
}
