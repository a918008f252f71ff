//! Async calls: ten tokio tasks sharing one multiplexed connection, typed
//! `invoke_async` against the same EVALSHA written by hand.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use redis::AsyncConnectionConfig;
use redis::aio::MultiplexedConnection;

use crate::bindings::pad_100;
use crate::markdown::{figure, ratio, table_head, table_row};
use crate::measure::{Slice, interleaved};
use crate::options::Options;
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::server::Server;
use crate::stats::ratios;
use crate::sys;

pub const TASKS: usize = 10;
const KEY: &str = "bench:async";

pub const NAMES: [&str; 2] = [
    "typed `invoke_async`",
    "hand-written `redis::cmd(\"EVALSHA\")…query_async()`",
];
pub const TYPED: usize = 0;
pub const RAW: usize = 1;

pub struct Results {
    /// Per variant, per round: calls per second over all tasks.
    pub rates: Vec<Vec<f64>>,
    /// Per variant, per round: CPU µs per call of the client (the runtime's
    /// one thread runs the tasks and the connection's driver).
    pub cpu_us: Vec<Vec<f64>>,
}

async fn call(which: usize, con: &mut MultiplexedConnection) -> i64 {
    if which == TYPED {
        pad_100(KEY).invoke_async(con).await.expect("invoke_async")
    } else {
        redis::cmd("EVALSHA")
            .arg(pad_100::SCRIPT.sha1())
            .arg(1)
            .arg(KEY)
            .query_async(con)
            .await
            .expect("EVALSHA")
    }
}

async fn slice(which: usize, con: &MultiplexedConnection, length: Duration) -> Slice {
    let cpu_start = sys::thread_cpu();
    let start = Instant::now();
    let deadline = start + length;
    let tasks: Vec<_> = (0..TASKS)
        .map(|_| {
            let mut con = con.clone();
            tokio::spawn(async move {
                let mut calls = 0u64;
                while Instant::now() < deadline {
                    std::hint::black_box(call(which, &mut con).await);
                    calls += 1;
                }
                calls
            })
        })
        .collect();
    let mut calls = 0;
    for task in tasks {
        calls += task.await.expect("a benchmark task");
    }
    Slice {
        calls,
        wall: start.elapsed(),
        cpu: sys::thread_cpu() - cpu_start,
    }
}

pub fn run(server: &Server, options: &Options) -> Results {
    // One thread, on the client's CPU like everything else here.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let client = server.client();
    let con = runtime.block_on(async {
        // No reply timeout: a loaded machine must slow the run, not fail it.
        let config = AsyncConnectionConfig::new().set_response_timeout(None);
        let mut con = client
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .expect("a multiplexed connection");
        pad_100::SCRIPT
            .load(&mut server.connection())
            .expect("SCRIPT LOAD");
        for which in 0..NAMES.len() {
            for _ in 0..200 {
                call(which, &mut con).await;
            }
        }
        con
    });
    let mut results = Results {
        rates: vec![Vec::new(); NAMES.len()],
        cpu_us: vec![Vec::new(); NAMES.len()],
    };
    for round in 0..options.rounds {
        let slices = interleaved(NAMES.len(), options.slice, round, |which, length| {
            runtime.block_on(slice(which, &con, length))
        });
        for (which, slice) in slices.iter().enumerate() {
            results.rates[which].push(slice.rate());
            results.cpu_us[which].push(slice.cpu_us_per_call());
        }
        eprintln!(
            "  async round {}: typed {:.0}, EVALSHA {:.0} calls/s",
            round + 1,
            results.rates[TYPED][round],
            results.rates[RAW][round]
        );
    }
    results
}

impl Part for Results {
    fn section(&self) -> Section {
        Section::Async
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let _ = writeln!(
            md,
            "{TASKS} tokio tasks on a current-thread runtime share one `MultiplexedConnection`, \
             each calling the 100-byte script in a loop. Client CPU is the runtime's one \
             thread, which runs the tasks and the connection's driver.\n"
        );
        table_head(
            md,
            [
                "variant",
                "calls per second",
                "client CPU µs per call",
                "vs hand-written",
            ],
        );
        for (which, name) in NAMES.iter().enumerate() {
            table_row(
                md,
                [
                    name.to_string(),
                    figure(&self.rates[which], 0),
                    figure(&self.cpu_us[which], 2),
                    ratio(ratios(&self.rates[which], &self.rates[RAW])),
                ],
            );
        }
        let _ = writeln!(md);
    }

    fn targets(&self) -> Vec<Target> {
        ratios(&self.rates[TYPED], &self.rates[RAW])
            .map(|r| {
                Target::ratio(
                    format!(
                        "async, {TASKS} tasks on one multiplexed connection: `invoke_async` vs \
                         hand-written EVALSHA, calls/s"
                    ),
                    "≥ 0.95x (within 5%)",
                    r,
                    0.95,
                    false,
                )
            })
            .into_iter()
            .collect()
    }
}
