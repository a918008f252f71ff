//! Timing loops shared by the sections: run a call for a slice of time and
//! record what it cost, and rotate the variants' order round by round.

use std::time::{Duration, Instant};

use crate::sys;

/// What one variant did in one slice of one round.
#[derive(Debug, Clone, Copy)]
pub struct Slice {
    pub calls: u64,
    pub wall: Duration,
    /// CPU time of the measuring thread.
    pub cpu: Duration,
}

impl Slice {
    /// No calls, no time.
    pub const NONE: Slice = Slice {
        calls: 0,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
    };

    /// Wall-clock microseconds per call.
    pub fn us_per_call(&self) -> f64 {
        self.wall.as_secs_f64() * 1e6 / self.calls as f64
    }

    /// CPU microseconds per call, of the calling thread.
    pub fn cpu_us_per_call(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.calls as f64
    }

    /// Calls per second.
    pub fn rate(&self) -> f64 {
        self.calls as f64 / self.wall.as_secs_f64()
    }
}

/// Calls `step` (which makes `per_step` calls) until `length` has passed,
/// checking the clock every step.
pub fn run_slice(length: Duration, per_step: u64, mut step: impl FnMut()) -> Slice {
    let cpu_start = sys::thread_cpu();
    let start = Instant::now();
    let mut calls = 0;
    loop {
        step();
        calls += per_step;
        if start.elapsed() >= length {
            break;
        }
    }
    let wall = start.elapsed();
    Slice {
        calls,
        wall,
        cpu: sys::thread_cpu() - cpu_start,
    }
}

/// How many interleaved pieces one round of a comparison is cut into.
pub const PIECES: usize = 10;

/// One round of a comparison of `count` variants: each runs for `length`
/// in all, cut into [`PIECES`] pieces taken in turns (the order rotating
/// from piece to piece), so that a burst of other work on the machine falls
/// on every variant alike. `piece(which, length)` runs one piece; the result
/// is each variant's pieces added up.
pub fn interleaved(
    count: usize,
    length: Duration,
    round: usize,
    mut piece: impl FnMut(usize, Duration) -> Slice,
) -> Vec<Slice> {
    let mut totals = vec![Slice::NONE; count];
    let each = length / PIECES as u32;
    for p in 0..PIECES {
        for which in order(count, round + p) {
            let slice = piece(which, each);
            let total = &mut totals[which];
            total.calls += slice.calls;
            total.wall += slice.wall;
            total.cpu += slice.cpu;
        }
    }
    totals
}

/// The order of `count` variants in round `round`: rotated by one each
/// round, so that no variant always runs first or after the same one.
pub fn order(count: usize, round: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |i| (i + round) % count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_rotates() {
        assert_eq!(order(3, 0).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(order(3, 1).collect::<Vec<_>>(), [1, 2, 0]);
        assert_eq!(order(3, 5).collect::<Vec<_>>(), [2, 0, 1]);
    }

    #[test]
    fn interleaved_pieces_add_up_per_variant() {
        let mut seen = Vec::new();
        let totals = interleaved(3, Duration::from_millis(30), 1, |which, length| {
            seen.push(which);
            assert_eq!(length, Duration::from_millis(3));
            Slice {
                calls: which as u64 + 1,
                wall: length,
                cpu: Duration::ZERO,
            }
        });
        assert_eq!(seen.len(), 3 * PIECES);
        assert_eq!(&seen[..6], [1, 2, 0, 2, 0, 1]);
        assert_eq!(totals[2].calls, 3 * PIECES as u64);
        assert_eq!(totals[0].wall, Duration::from_millis(30));
    }

    #[test]
    fn a_slice_counts_its_calls() {
        let mut n = 0;
        let slice = run_slice(Duration::from_millis(5), 2, || n += 2);
        assert_eq!(slice.calls, n);
        assert!(slice.wall >= Duration::from_millis(5));
        assert!(slice.rate() > 0.0);
    }
}
