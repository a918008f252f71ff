//! One connection, one call at a time: the typed `invoke` against the same
//! EVALSHA written by hand, and against redis-rs's own `redis::Script`.

use std::fmt::Write as _;

use redis::Connection;

use crate::bindings::pad_100;
use crate::markdown::{figure, ratio, table_head, table_row};
use crate::measure::{interleaved, run_slice};
use crate::options::Options;
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::server::Server;
use crate::stats::{number, ratios};

pub const KEY: &str = "bench:sequential";

/// The variants, in the report's order.
pub const NAMES: [&str; 3] = [
    "typed `invoke` (redis-script)",
    "hand-written `redis::cmd(\"EVALSHA\")…query()`",
    "redis-rs `Script::invoke` (prepared `redis::Script`)",
];

/// Index of the typed call and of the hand-written EVALSHA in [`NAMES`].
pub const TYPED: usize = 0;
pub const RAW: usize = 1;

pub struct Results {
    /// Per variant, per round: wall-clock µs per call.
    pub wall_us: Vec<Vec<f64>>,
    /// Per variant, per round: CPU µs per call of the calling thread.
    pub cpu_us: Vec<Vec<f64>>,
    pub calls: u64,
}

/// One call of variant `which`, checked.
pub fn call(which: usize, con: &mut Connection, prepared: &redis::Script) -> i64 {
    match which {
        TYPED => typed(con),
        RAW => by_hand(con),
        _ => prepared
            .key(KEY)
            .invoke(con)
            .expect("redis::Script::invoke"),
    }
}

/// The typed call, checked.
pub fn typed(con: &mut Connection) -> i64 {
    pad_100(KEY).invoke(con).expect("typed invoke")
}

/// The same EVALSHA written by hand, checked.
pub fn by_hand(con: &mut Connection) -> i64 {
    redis::cmd("EVALSHA")
        .arg(pad_100::SCRIPT.sha1())
        .arg(1)
        .arg(KEY)
        .query(con)
        .expect("EVALSHA")
}

pub fn run(server: &Server, options: &Options) -> Results {
    let mut con = server.connection();
    let prepared = redis::Script::new(pad_100::SCRIPT.source());
    pad_100::SCRIPT.load(&mut con).expect("SCRIPT LOAD");
    for which in 0..NAMES.len() {
        for _ in 0..200 {
            call(which, &mut con, &prepared);
        }
    }
    let mut results = Results {
        wall_us: vec![Vec::new(); NAMES.len()],
        cpu_us: vec![Vec::new(); NAMES.len()],
        calls: 0,
    };
    for round in 0..options.rounds {
        let slices = interleaved(NAMES.len(), options.slice, round, |which, length| {
            run_slice(length, 16, || {
                for _ in 0..16 {
                    std::hint::black_box(call(which, &mut con, &prepared));
                }
            })
        });
        for (which, slice) in slices.iter().enumerate() {
            results.wall_us[which].push(slice.us_per_call());
            results.cpu_us[which].push(slice.cpu_us_per_call());
            results.calls += slice.calls;
        }
        eprintln!(
            "  sequential round {}: typed {:.1} µs, EVALSHA {:.1} µs, Script {:.1} µs per call",
            round + 1,
            results.wall_us[0][round],
            results.wall_us[1][round],
            results.wall_us[2][round]
        );
    }
    results
}

impl Part for Results {
    fn section(&self) -> Section {
        Section::Sequential
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let _ = writeln!(
            md,
            "One synchronous connection, one call at a time, of the 100-byte script \
             (`benches/scripts/pad_100.lua`, INCR of one key), already loaded. \
             {} calls in all.\n",
            number(self.calls as f64, 0)
        );
        table_head(
            md,
            [
                "variant",
                "µs per call",
                "client CPU µs per call",
                "time vs hand-written",
                "CPU vs hand-written",
            ],
        );
        for (which, name) in NAMES.iter().enumerate() {
            table_row(
                md,
                [
                    name.to_string(),
                    figure(&self.wall_us[which], 1),
                    figure(&self.cpu_us[which], 2),
                    ratio(ratios(&self.wall_us[which], &self.wall_us[RAW])),
                    ratio(ratios(&self.cpu_us[which], &self.cpu_us[RAW])),
                ],
            );
        }
        let _ = writeln!(
            md,
            "\nClient CPU is `getrusage(RUSAGE_THREAD)` of the calling thread (user + system), \
             whose resolution is coarse next to one call: read it over the slice, not per call.\n"
        );
    }

    fn targets(&self) -> Vec<Target> {
        let mut targets = Vec::new();
        if let Some(r) = ratios(&self.wall_us[TYPED], &self.wall_us[RAW]) {
            targets.push(Target::ratio(
                "sequential `invoke`: time per call vs hand-written EVALSHA".into(),
                "≤ 1.03x",
                r,
                1.03,
                true,
            ));
        }
        if let Some(r) = ratios(&self.cpu_us[TYPED], &self.cpu_us[RAW]) {
            targets.push(Target::ratio(
                "sequential `invoke`: client CPU per call vs hand-written EVALSHA".into(),
                "≤ 1.00x",
                r,
                1.0,
                true,
            ));
        }
        targets
    }
}
