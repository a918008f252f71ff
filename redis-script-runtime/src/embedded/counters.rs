//! Per-script counts that need no feature: what a health endpoint or a test
//! reads with [`Script::stats`](crate::Script::stats).
//!
//! On the embedded floor because every [`Script`](crate::Script) holds its
//! own, built with it in `const` context; `observe` adds to them, and
//! re-exports [`ScriptStats`] where users look for it.

#[cfg(target_has_atomic = "64")]
use std::sync::atomic::AtomicU64 as Count;
// Where 64-bit atomics are missing, counts wrap at the pointer width.
#[cfg(not(target_has_atomic = "64"))]
use std::sync::atomic::AtomicUsize as Count;
use std::sync::atomic::Ordering::Relaxed;

use super::error_class::ErrorClass;

const CLASSES: usize = ErrorClass::ALL.len();

/// The live counts of one script, inside its [`Script`](crate::Script).
///
/// Aligned to a cache line of their own: every call writes them, and other
/// threads read the script's fields next to them (its name, its SHA1) on
/// every call; sharing a line would make those reads wait on the writes.
/// Updates are relaxed: each count is exact, but two counts read together
/// may be one call apart.
#[derive(Debug)]
#[repr(align(64))]
pub(crate) struct Counters {
    calls: Count,
    recoveries: Count,
    errors: [Count; CLASSES],
}

impl Counters {
    pub(crate) const fn new() -> Counters {
        Counters {
            calls: Count::new(0),
            recoveries: Count::new(0),
            errors: [const { Count::new(0) }; CLASSES],
        }
    }

    pub(crate) fn call(&self) {
        self.calls.fetch_add(1, Relaxed);
    }

    pub(crate) fn recovery(&self) {
        self.recoveries.fetch_add(1, Relaxed);
    }

    pub(crate) fn error(&self, class: ErrorClass) {
        self.errors[class.index()].fetch_add(1, Relaxed);
    }

    pub(crate) fn snapshot(&self) -> ScriptStats {
        // A cast from `usize` where 64-bit atomics are missing.
        #[allow(clippy::unnecessary_cast)]
        let read = |count: &Count| count.load(Relaxed) as u64;
        ScriptStats {
            calls: read(&self.calls),
            recoveries: read(&self.recoveries),
            errors: self.errors.each_ref().map(read),
        }
    }
}

/// How often a script's binding was called, recovered and failed since the
/// program started: see [`Script::stats`](crate::Script::stats).
///
/// A call counts when [`invoke`](crate::Invocation::invoke) or
/// [`invoke_async`](crate::Invocation::invoke_async) runs it, or when a
/// pipeline or a [`Batch`](crate::Batch) queues it
/// ([`ScriptPipeline`](crate::ScriptPipeline)). A failed
/// call counts once, by its [`ErrorClass`]: from `invoke`, from a
/// [`Batch`](crate::Batch) run (an error reply) or the
/// [`take`](crate::BatchReplies::take) of its reply (one that does not
/// fit), or from [`Invocation::decode`](crate::Invocation::decode) of its
/// reply in a pipeline. A recovery is one NOSCRIPT (or missing library, or a
/// library whose version lacks a function's `no-writes` flag) answered by
/// sending the script again (or loading the library), whether or not the
/// call then succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ScriptStats {
    calls: u64,
    recoveries: u64,
    errors: [u64; CLASSES],
}

impl ScriptStats {
    /// Calls made or queued.
    pub const fn calls(&self) -> u64 {
        self.calls
    }

    /// NOSCRIPT or missing-library recoveries.
    pub const fn recoveries(&self) -> u64 {
        self.recoveries
    }

    /// Failed calls, of every class.
    pub fn errors(&self) -> u64 {
        self.errors.iter().sum()
    }

    /// Failed calls of one class.
    pub const fn errors_of(&self, class: ErrorClass) -> u64 {
        self.errors[class.index()]
    }

    /// The counts gained since `earlier`, a snapshot of the same script
    /// (e.g. to report a rate, or to see what one test did).
    pub fn since(&self, earlier: &ScriptStats) -> ScriptStats {
        ScriptStats {
            calls: self.calls.wrapping_sub(earlier.calls),
            recoveries: self.recoveries.wrapping_sub(earlier.recoveries),
            errors: std::array::from_fn(|class| {
                self.errors[class].wrapping_sub(earlier.errors[class])
            }),
        }
    }
}
