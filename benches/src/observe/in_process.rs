//! A variant's calls in the process that runs it: the harness's own
//! variants in the harness, a worker's in the worker (which the harness
//! asks for them).

use std::time::Duration;

use redis::Connection;

use super::listeners;
use super::variants::{Call, VARIANTS};
use crate::alloc::Counts;
use crate::allocations;
use crate::measure::{Slice, run_slice};
use crate::sequential;

/// Calls before measuring, in each process.
const WARM_UP: usize = 200;

/// One call of `call`, checked.
fn call_once(call: Call, con: &mut Connection) -> i64 {
    match call {
        Call::ByHand => sequential::by_hand(con),
        Call::Typed | Call::Subscribed | Call::Recorded => sequential::typed(con),
    }
}

/// [`WARM_UP`] calls of `which`, then a check that its listener heard them.
pub fn warm(which: usize, con: &mut Connection) -> Result<(), String> {
    let call = VARIANTS[which].call;
    listeners::listening(call, || {
        for _ in 0..WARM_UP {
            call_once(call, con);
        }
    });
    listeners::heard(call)
}

/// `which` for `length`, its listener on for the piece.
pub fn slice(which: usize, con: &mut Connection, length: Duration) -> Slice {
    let call = VARIANTS[which].call;
    listeners::listening(call, || {
        run_slice(length, 16, || {
            for _ in 0..16 {
                std::hint::black_box(call_once(call, con));
            }
        })
    })
}

/// The allocations of `which`'s calls, its listener on.
pub fn count_allocations(which: usize, con: &mut Connection) -> Vec<Counts> {
    let call = VARIANTS[which].call;
    listeners::listening(call, || allocations::count_batches(|| call_once(call, con)))
}
