//! Waiting for a set-up to reach a state, bounded.

use std::thread;
use std::time::{Duration, Instant};

/// Pause between polls.
const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// Polls `done` until it holds, panicking after `timeout` with `what` was
/// awaited.
pub(crate) fn until(timeout: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "waited {timeout:?} for {what}");
        thread::sleep(POLL_INTERVAL);
    }
}
