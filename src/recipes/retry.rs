//! Retrying an attempt until it succeeds or a wait runs out, for the
//! recipes that wait for a lock, a permit or an item.

use std::hash::{BuildHasher, RandomState};
use std::thread;
use std::time::{Duration, Instant};

use crate::Error;

/// First pause between attempts in [`retry_until`].
const FIRST_PAUSE: Duration = Duration::from_micros(500);
/// Longest pause between attempts: a waiter notices a release within this.
const LONGEST_PAUSE: Duration = Duration::from_millis(20);

/// Runs `attempt` until it yields `Some`, it fails, or `wait` has passed,
/// pausing between attempts for a randomized time that doubles from
/// [`FIRST_PAUSE`] up to [`LONGEST_PAUSE`]. The last attempt is made when
/// `wait` runs out; a zero `wait` makes exactly one attempt.
pub(crate) fn retry_until<T>(
    wait: Duration,
    mut attempt: impl FnMut() -> Result<Option<T>, Error>,
) -> Result<Option<T>, Error> {
    let deadline = Deadline::after(wait);
    let mut pause = FIRST_PAUSE;
    loop {
        if let Some(success) = attempt()? {
            return Ok(Some(success));
        }
        let Some(remaining) = deadline.remaining(LONGEST_PAUSE) else {
            return Ok(None);
        };
        thread::sleep(jittered(pause).min(remaining));
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

/// The end of a wait, for the loops that retry until it passes.
pub(crate) struct Deadline(Option<Instant>);

impl Deadline {
    /// `wait` from now; a wait too long to represent as an `Instant` has no
    /// end.
    pub(crate) fn after(wait: Duration) -> Deadline {
        Deadline(Instant::now().checked_add(wait))
    }

    /// The time left, or `None` once the deadline has passed; `unbounded`
    /// for a wait without an end.
    pub(crate) fn remaining(&self, unbounded: Duration) -> Option<Duration> {
        let remaining = match self.0 {
            Some(deadline) => deadline.saturating_duration_since(Instant::now()),
            None => unbounded,
        };
        (!remaining.is_zero()).then_some(remaining)
    }
}

/// A random duration between half of `pause` and `pause`.
fn jittered(pause: Duration) -> Duration {
    let fraction = RandomState::new().hash_one(()) as f64 / u64::MAX as f64;
    pause.mul_f64(0.5 + fraction / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_stays_within_half_and_whole_pause() {
        for _ in 0..1000 {
            let pause = jittered(LONGEST_PAUSE);
            assert!(
                pause >= LONGEST_PAUSE / 2 && pause <= LONGEST_PAUSE,
                "{pause:?}"
            );
        }
    }

    #[test]
    fn retry_until_makes_one_attempt_for_a_zero_wait() {
        let mut attempts = 0;
        let result = retry_until(Duration::ZERO, || {
            attempts += 1;
            Ok::<Option<()>, Error>(None)
        });
        assert!(matches!(result, Ok(None)));
        assert_eq!(attempts, 1);
    }

    #[test]
    fn retry_until_stops_at_the_first_success() {
        let mut attempts = 0;
        let result = retry_until(Duration::from_secs(60), || {
            attempts += 1;
            Ok::<_, Error>((attempts == 3).then_some(attempts))
        });
        assert!(matches!(result, Ok(Some(3))));
    }
}
