//! The observe section's variants: where each runs (the harness or one of
//! its workers) and what it calls, with what listening. The harness and its
//! workers both read this table: a worker is asked for a variant by its
//! index.

/// Where a variant runs: this harness, or one of its workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Process {
    /// The harness itself, built without `tracing` and `metrics`.
    Harness,
    /// A worker with spans compiled in that never makes a subscriber: once
    /// one exists in a process, every span callsite there asks it (or the
    /// thread's current one) about each call, listening or not.
    Spans,
    /// A worker of the same build, with a subscriber on its thread during
    /// its typed variant's pieces.
    Subscribed,
    /// A worker with metrics compiled in, with a recorder on its thread
    /// during one variant's pieces and none otherwise (a recorder set for a
    /// thread and a while leaves nothing behind).
    Metrics,
}

impl Process {
    /// The workers, each a process of its own.
    pub const WORKERS: [Process; 3] = [Process::Spans, Process::Subscribed, Process::Metrics];

    /// The feature of this crate its build adds (none for the harness).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            Process::Harness => None,
            Process::Spans | Process::Subscribed => Some("observe-tracing"),
            Process::Metrics => Some("observe-metrics"),
        }
    }

    /// Whether this build is the one the process runs.
    pub fn is_this_build(self) -> bool {
        let tracing = cfg!(feature = "observe-tracing");
        let metrics = cfg!(feature = "observe-metrics");
        match self {
            Process::Harness => !tracing && !metrics,
            Process::Spans | Process::Subscribed => tracing,
            Process::Metrics => metrics,
        }
    }
}

/// What a variant calls, and what listens meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `pad_100(key).invoke(&mut con)`, nothing listening.
    Typed,
    /// The same EVALSHA by hand: the process's reference.
    ByHand,
    /// The typed call, with a subscriber formatting every span.
    Subscribed,
    /// The typed call, with a recorder keeping every metric.
    Recorded,
}

/// One measured call in one process.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    pub name: &'static str,
    pub process: Process,
    pub call: Call,
}

/// The variants, in the report's order; workers are asked for them by index.
pub const VARIANTS: [Variant; 9] = [
    Variant {
        name: "typed `invoke`, `tracing` and `metrics` off (this harness)",
        process: Process::Harness,
        call: Call::Typed,
    },
    Variant {
        name: "hand-written EVALSHA (this harness)",
        process: Process::Harness,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `tracing` on, no subscriber",
        process: Process::Spans,
        call: Call::Typed,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Spans,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `tracing` on, a subscriber formatting every span",
        process: Process::Subscribed,
        call: Call::Subscribed,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Subscribed,
        call: Call::ByHand,
    },
    Variant {
        name: "typed `invoke`, `metrics` on, no recorder",
        process: Process::Metrics,
        call: Call::Typed,
    },
    Variant {
        name: "typed `invoke`, `metrics` on, a recorder counting every metric",
        process: Process::Metrics,
        call: Call::Recorded,
    },
    Variant {
        name: "hand-written EVALSHA (the same worker)",
        process: Process::Metrics,
        call: Call::ByHand,
    },
];

/// The typed call and the hand-written one with the features off.
pub const OFF: usize = 0;
pub const OFF_BY_HAND: usize = 1;
/// The variant of the observability target: `tracing` on, nobody listening.
pub const SPANS_UNHEARD: usize = 2;

/// The hand-written call of the process `which` runs in.
pub fn by_hand(which: usize) -> usize {
    let process = VARIANTS[which].process;
    VARIANTS
        .iter()
        .position(|v| v.process == process && v.call == Call::ByHand)
        .expect("every process has its hand-written call")
}

/// What `which` is compared with in the build without the features: the
/// typed call, or for a hand-written call, the harness's own.
pub fn off(which: usize) -> usize {
    if VARIANTS[which].call == Call::ByHand {
        OFF_BY_HAND
    } else {
        OFF
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_process_has_a_reference_and_each_worker_a_feature() {
        for (which, variant) in VARIANTS.iter().enumerate() {
            let reference = &VARIANTS[by_hand(which)];
            assert_eq!(reference.process, variant.process);
            assert_eq!(reference.call, Call::ByHand);
        }
        assert!(Process::WORKERS.iter().all(|p| p.feature().is_some()));
        assert_eq!(Process::Harness.feature(), None);
        assert_eq!(off(SPANS_UNHEARD), OFF);
        assert_eq!(off(by_hand(SPANS_UNHEARD)), OFF_BY_HAND);
        assert_eq!(VARIANTS[SPANS_UNHEARD].process, Process::Spans);
        assert_eq!(VARIANTS[SPANS_UNHEARD].call, Call::Typed);
    }

    #[test]
    fn a_test_build_is_the_harness_or_a_worker_by_its_features() {
        let plain = !cfg!(feature = "observe-tracing") && !cfg!(feature = "observe-metrics");
        assert_eq!(Process::Harness.is_this_build(), plain);
        assert_eq!(
            Process::Spans.is_this_build(),
            cfg!(feature = "observe-tracing")
        );
    }
}
