//! Pipelines run in a span, counted: [`ScriptPipeline::observed`](crate::ScriptPipeline::observed).

#[cfg(feature = "tracing")]
use std::fmt;

use redis::{ConnectionLike, FromRedisValue, Pipeline, RedisResult};

/// A pipeline to run observed: its query runs in a `redis_script.pipeline`
/// span and feeds the pipeline metrics (see [`observe`](crate::observe)),
/// and otherwise is the pipeline's own `query`, with the same results.
///
/// Made by [`ScriptPipeline::observed`](crate::ScriptPipeline::observed):
///
/// ```ignore
/// let mut pipe = redis::pipe();
/// pipe.evalsha_script(&acquire_lock("lock:a", 10, &token))?;
/// let (taken,): (Option<String>,) = pipe.observed().query(&mut con)?;
/// ```
#[derive(Debug, Clone, Copy)]
#[must_use = "an observed pipeline does nothing until it is queried"]
pub struct ObservedPipeline<'a, P> {
    pipe: &'a P,
}

impl<'a, P> ObservedPipeline<'a, P> {
    pub(crate) fn new(pipe: &'a P) -> Self {
        ObservedPipeline { pipe }
    }
}

impl ObservedPipeline<'_, Pipeline> {
    /// Runs the pipeline as [`Pipeline::query`] does, observed.
    pub fn query<T: FromRedisValue>(&self, con: &mut dyn ConnectionLike) -> RedisResult<T> {
        let run = Run::start(self.pipe, self.pipe.is_transaction(), || con.get_db());
        let result = run.in_scope(|| self.pipe.query(con));
        run.finish(&result);
        result
    }

    /// Runs the pipeline as [`Pipeline::query_async`] does, observed.
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn query_async<T: FromRedisValue>(
        &self,
        con: &mut impl redis::aio::ConnectionLike,
    ) -> RedisResult<T> {
        let run = Run::start(self.pipe, self.pipe.is_transaction(), || con.get_db());
        let result = run.instrument(self.pipe.query_async(con)).await;
        run.finish(&result);
        result
    }
}

#[cfg(feature = "cluster")]
#[cfg_attr(docsrs, doc(cfg(feature = "cluster")))]
impl ObservedPipeline<'_, redis::cluster::ClusterPipeline> {
    /// Runs the pipeline as [`ClusterPipeline::query`](redis::cluster::ClusterPipeline::query)
    /// does, observed.
    pub fn query<T: FromRedisValue>(
        &self,
        con: &mut redis::cluster::ClusterConnection,
    ) -> RedisResult<T> {
        let run = Run::start(self.pipe, false, || con.get_db());
        let result = run.in_scope(|| self.pipe.query(con));
        run.finish(&result);
        result
    }
}

/// The pipeline forms this module observes: both list their commands.
pub(crate) trait Queued {
    /// A binding of each script or function the queued commands call,
    /// each once, in order.
    #[cfg(feature = "tracing")]
    fn scripts(&self) -> Vec<&'static crate::embedded::script::Script>;
    /// The arguments of each queued command, in order.
    #[cfg(any(feature = "tracing", feature = "metrics"))]
    fn commands(&self) -> Vec<Vec<&[u8]>>;
}

macro_rules! queued {
    ($pipeline:ty) => {
        impl Queued for $pipeline {
            #[cfg(feature = "tracing")]
            fn scripts(&self) -> Vec<&'static crate::embedded::script::Script> {
                let mut scripts: Vec<&'static crate::embedded::script::Script> = Vec::new();
                for cmd in self.cmd_iter() {
                    if let Some(script) = called_script(cmd.args_iter()) {
                        if !scripts.iter().any(|known| {
                            known.sha1() == script.sha1()
                                && known.function_name() == script.function_name()
                        }) {
                            scripts.push(script);
                        }
                    }
                }
                scripts
            }

            #[cfg(any(feature = "tracing", feature = "metrics"))]
            fn commands(&self) -> Vec<Vec<&[u8]>> {
                self.cmd_iter()
                    .map(|cmd| super::operation::args(cmd.args_iter()))
                    .collect()
            }
        }
    };
}

queued!(Pipeline);
#[cfg(feature = "cluster")]
queued!(redis::cluster::ClusterPipeline);

/// One pipeline run being observed: by [`ObservedPipeline`], and by
/// [`Batch`](crate::Batch).
pub(crate) struct Run {
    #[cfg(feature = "metrics")]
    batch: super::operation::Batch,
    #[cfg(feature = "metrics")]
    db: i64,
    #[cfg(feature = "metrics")]
    started: std::time::Instant,
    #[cfg(feature = "tracing")]
    span: tracing::Span,
}

impl Run {
    #[cfg_attr(
        not(all(feature = "tracing", feature = "metrics")),
        allow(unused_variables)
    )]
    pub(crate) fn start(pipe: &impl Queued, atomic: bool, db: impl FnOnce() -> i64) -> Run {
        #[cfg(any(feature = "tracing", feature = "metrics"))]
        let db = db();
        #[cfg(any(feature = "tracing", feature = "metrics"))]
        let batch = || super::operation::Batch::of(&pipe.commands(), atomic);
        Run {
            #[cfg(feature = "metrics")]
            batch: batch(),
            #[cfg(feature = "metrics")]
            db,
            #[cfg(feature = "metrics")]
            started: std::time::Instant::now(),
            #[cfg(feature = "tracing")]
            span: super::spans::pipeline(batch, ScriptNames(pipe), db),
        }
    }

    pub(crate) fn in_scope<R>(&self, f: impl FnOnce() -> R) -> R {
        super::scope::in_scope(self, f)
    }

    /// `future`, run inside the pipeline's span.
    #[cfg(feature = "aio")]
    pub(crate) fn instrument<F: std::future::Future>(
        &self,
        future: F,
    ) -> impl std::future::Future<Output = F::Output> {
        super::scope::instrument(self, future)
    }

    #[cfg_attr(
        not(any(feature = "tracing", feature = "metrics")),
        allow(unused_variables)
    )]
    pub(crate) fn finish<T>(self, result: &RedisResult<T>) {
        #[cfg(feature = "tracing")]
        if let Err(error) = result {
            super::spans::pipeline_failure(&self.span, error);
        }
        #[cfg(feature = "metrics")]
        super::metrics::pipeline_duration(
            &self.batch,
            self.db,
            self.started.elapsed(),
            result.as_ref().err().map(|error| {
                let code = super::operation::pipeline_error_code(error);
                super::metrics::ErrorLabels {
                    error_type: code
                        .clone()
                        .unwrap_or_else(|| crate::error::class(error, false).as_str().to_owned()),
                    status_code: code,
                }
            }),
        );
    }
}

impl super::scope::Spanned for Run {
    #[cfg(feature = "tracing")]
    fn span(&self) -> &tracing::Span {
        &self.span
    }
}

/// What a pipeline calls, `a.lua, b.lua, fn_name`: each script's Lua file
/// and each function's name, written only when a subscriber reads the field.
/// (Not the bindings' names: bindings of one file share a SHA1 and a source,
/// so a queued command tells only its script apart.)
#[cfg(feature = "tracing")]
struct ScriptNames<'a, P>(&'a P);

#[cfg(feature = "tracing")]
impl<P: Queued> fmt::Display for ScriptNames<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, script) in self.0.scripts().into_iter().enumerate() {
            let separator = if index == 0 { "" } else { ", " };
            let called = script.function_name().unwrap_or(script.file());
            write!(f, "{separator}{called}")?;
        }
        Ok(())
    }
}

/// The binding a queued command calls, found in the registry: by SHA1 for
/// EVALSHA, by source for EVAL, by function name for FCALL. Commands that
/// call no binding of this program give `None`.
#[cfg(feature = "tracing")]
fn called_script<'a>(
    mut args: impl Iterator<Item = redis::Arg<&'a [u8]>>,
) -> Option<&'static crate::embedded::script::Script> {
    use redis::Arg;
    let (Some(Arg::Simple(name)), Some(Arg::Simple(called))) = (args.next(), args.next()) else {
        return None;
    };
    let name = std::str::from_utf8(name).ok()?.to_ascii_uppercase();
    let matches: fn(&crate::embedded::script::Script, &[u8]) -> bool = match name.as_str() {
        "EVALSHA" | "EVALSHA_RO" => |script, sha1| script.sha1().as_bytes() == sha1,
        "EVAL" | "EVAL_RO" => {
            |script, source| script.library().is_none() && script.source().as_bytes() == source
        }
        "FCALL" | "FCALL_RO" => {
            |script, function| script.function_name().map(str::as_bytes) == Some(function)
        }
        _ => return None,
    };
    crate::embedded::linked::SCRIPTS
        .iter()
        .copied()
        .find(|script| matches(script, called))
}
