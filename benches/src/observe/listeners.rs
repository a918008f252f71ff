//! What listens to a worker's calls: a tracing subscriber that formats every
//! span (feature `observe-tracing`), or a metrics recorder (feature
//! `observe-metrics`, see `recorder.rs`), each set on the measuring thread
//! for the pieces of its one variant.

use super::variants::Call;

/// The recorder of the variant that has one: set for a thread and a while
/// only, never as the global recorder, so that the variant without one has
/// none.
#[cfg(feature = "observe-metrics")]
static RECORDER: std::sync::LazyLock<super::recorder::Recorder> =
    std::sync::LazyLock::new(Default::default);

/// Runs `f` with `call`'s listener set on this thread, if it has one.
pub fn listening<R>(call: Call, f: impl FnOnce() -> R) -> R {
    match call {
        #[cfg(feature = "observe-tracing")]
        Call::Subscribed => tracing::dispatcher::with_default(&subscriber::SUBSCRIBER, f),
        #[cfg(feature = "observe-metrics")]
        Call::Recorded => metrics::with_local_recorder(&*RECORDER, f),
        _ => f(),
    }
}

/// Whether `call`'s listener has heard calls, checked after the warm-up:
/// a worker whose runtime was built without spans or metrics would
/// otherwise measure nothing under the variant's name.
pub fn heard(call: Call) -> Result<(), String> {
    let heard = match call {
        Call::Typed | Call::ByHand => true,
        #[cfg(feature = "observe-tracing")]
        Call::Subscribed => subscriber::written() > 0,
        #[cfg(feature = "observe-metrics")]
        Call::Recorded => RECORDER.calls() > 0,
        // Its listener is not compiled into this build.
        #[allow(unreachable_patterns)]
        _ => false,
    };
    if heard {
        Ok(())
    } else {
        Err(format!("{call:?}: the listener heard none of the calls"))
    }
}

#[cfg(feature = "observe-tracing")]
mod subscriber {
    use std::io::{self, Write};
    use std::sync::LazyLock;
    use std::sync::atomic::{AtomicU64, Ordering};

    use tracing::Dispatch;
    use tracing_subscriber::fmt::format::FmtSpan;
    use tracing_subscriber::layer::SubscriberExt;

    /// Bytes the formatter has written.
    static WRITTEN: AtomicU64 = AtomicU64::new(0);

    /// Where the formatter writes: nowhere, counting the bytes.
    struct Sink;

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            WRITTEN.fetch_add(bytes.len() as u64, Ordering::Relaxed);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A registry with tracing-subscriber's formatter, a line per closed
    /// span as `cargo run --example tracing` prints them. Made on first use,
    /// in the one worker that listens.
    pub static SUBSCRIBER: LazyLock<Dispatch> = LazyLock::new(|| {
        let formatter = tracing_subscriber::fmt::layer()
            .with_span_events(FmtSpan::CLOSE)
            .with_writer(|| Sink);
        Dispatch::new(tracing_subscriber::registry().with(formatter))
    });

    pub fn written() -> u64 {
        WRITTEN.load(Ordering::Relaxed)
    }
}
