//! One connection, one call at a time: the typed `invoke` against the same
//! EVALSHA written by hand, and against redis-rs's own `redis::Script`.

use redis::Connection;

use crate::bindings::pad_100;
use crate::measure::{interleaved, run_slice};
use crate::options::Options;
use crate::server::Server;

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
