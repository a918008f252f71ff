//! Running code inside an observation's span: a call's or a pipeline
//! run's (without the feature `tracing`, there is none, and the code just
//! runs).

/// An observation with a span (without the feature `tracing`, none):
/// a call's, or a pipeline run's.
pub(crate) trait Spanned {
    #[cfg(feature = "tracing")]
    fn span(&self) -> &tracing::Span;
}

/// Runs `f` inside the span of `observed`.
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
pub(super) fn in_scope<R>(observed: &impl Spanned, f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "tracing")]
    let _entered = observed.span().enter();
    f()
}

/// `future`, run inside the span of `observed`.
#[cfg(feature = "aio")]
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
pub(super) fn instrument<F: std::future::Future>(
    observed: &impl Spanned,
    future: F,
) -> impl std::future::Future<Output = F::Output> {
    #[cfg(feature = "tracing")]
    let future = tracing::Instrument::instrument(future, observed.span().clone());
    future
}
