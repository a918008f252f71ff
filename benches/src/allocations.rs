//! Heap allocations per warm sequential call, counted by the harness's
//! global allocator on the calling thread.

use std::fmt::Write as _;

use redis::Connection;

use crate::alloc::{self, Counts};
use crate::bindings::pad_100;
use crate::markdown::{table_head, table_row, verdict};
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::sequential::{self, KEY};
use crate::server::Server;
use crate::stats::Summary;

/// Batches counted per variant, after as many calls to warm up.
pub const BATCHES: usize = 20;
/// Calls per batch.
pub const BATCH: u64 = 100;

pub struct Row {
    pub name: &'static str,
    /// Allocator calls of each batch of [`BATCH`] calls.
    pub batches: Vec<Counts>,
}

impl Row {
    /// Per call, by the median batch: a buffer that grows once in a while
    /// (a connection's read buffer, say) does not count against every call.
    pub fn allocs(&self) -> Summary {
        self.per_call(|c| c.allocs)
    }

    pub fn reallocs(&self) -> Summary {
        self.per_call(|c| c.reallocs)
    }

    pub fn total(&self) -> Summary {
        self.per_call(|c| c.total())
    }

    fn per_call(&self, what: fn(&Counts) -> u64) -> Summary {
        let values: Vec<f64> = self
            .batches
            .iter()
            .map(|c| what(c) as f64 / BATCH as f64)
            .collect();
        Summary::of(&values).expect("batches were counted")
    }
}

/// The typed call is the one the target is about.
pub const TYPED: usize = 0;

pub fn run(server: &Server) -> Vec<Row> {
    let mut con = server.connection();
    pad_100::SCRIPT.load(&mut con).expect("SCRIPT LOAD");
    let prepared = redis::Script::new(pad_100::SCRIPT.source());
    let built = pad_100(KEY);
    type Call<'a> = Box<dyn FnMut(&mut Connection) -> i64 + 'a>;
    let variants: Vec<(&'static str, Call)> = vec![
        (
            "typed: `pad_100(key).invoke(&mut con)` (builds the call, then runs it)",
            Box::new(sequential::typed),
        ),
        (
            "typed: `call.invoke(&mut con)`, the call built once beforehand",
            Box::new(|con| built.invoke(con).expect("invoke")),
        ),
        (
            "redis-rs: `script.key(key).invoke(&mut con)`, a prepared `redis::Script`",
            Box::new(|con| prepared.key(KEY).invoke(con).expect("Script::invoke")),
        ),
        (
            "hand-built: `redis::cmd(\"EVALSHA\").arg(sha).arg(1).arg(key).query(&mut con)`",
            Box::new(sequential::by_hand),
        ),
    ];
    variants
        .into_iter()
        .map(|(name, mut call)| Row {
            name,
            batches: count_batches(|| call(&mut con)),
        })
        .collect()
}

/// The allocations of [`BATCHES`] batches of [`BATCH`] calls of `call`,
/// after as many calls to warm up.
pub fn count_batches(mut call: impl FnMut() -> i64) -> Vec<Counts> {
    for _ in 0..BATCH * BATCHES as u64 {
        call();
    }
    (0..BATCHES)
        .map(|_| {
            let ((), counts) = alloc::count(|| {
                for _ in 0..BATCH {
                    std::hint::black_box(call());
                }
            });
            counts
        })
        .collect()
}

/// The section's rows, one a call.
impl Part for Vec<Row> {
    fn section(&self) -> Section {
        Section::Allocations
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let _ = writeln!(
            md,
            "Counted by the harness's global allocator on the calling thread, in {BATCHES} \
             batches of {BATCH} warm calls of the 100-byte script each (reading the reply \
             included): per call, the median batch (min–max over the batches). An allocation \
             is an `alloc` or `alloc_zeroed`; a `realloc` (a buffer growing) is counted apart.\n"
        );
        table_head(md, ["call", "allocations per call", "reallocs per call"]);
        for row in self {
            table_row(
                md,
                [
                    row.name.to_string(),
                    row.allocs().show(2),
                    row.reallocs().show(2),
                ],
            );
        }
        let _ = writeln!(md);
    }

    fn targets(&self) -> Vec<Target> {
        let total = self[TYPED].total();
        vec![Target {
            what: "heap allocations per warm sequential `invoke` (alloc + realloc)".into(),
            goal: "≤ 2",
            measured: total.show(2),
            verdict: verdict(&total, 2.0, true),
        }]
    }
}
