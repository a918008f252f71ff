//! Round trips of a call after `SCRIPT FLUSH`, counted by a connection
//! wrapper: each `req_packed_command` (one command) or
//! `req_packed_commands` (one pipeline) is one round trip.

use std::fmt::Write as _;

use redis::{Connection, ConnectionLike, RedisResult, Value};
use redis_script::NoScriptFallback;

use crate::bindings::pad_100;
use crate::markdown::{table_head, table_row};
use crate::part::{Part, Target};
use crate::run::Run;
use crate::section::Section;
use crate::sequential::KEY;
use crate::server::Server;

/// A connection that counts its round trips.
pub struct CountingConnection<'a> {
    inner: &'a mut Connection,
    pub round_trips: usize,
}

impl ConnectionLike for CountingConnection<'_> {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        self.round_trips += 1;
        self.inner.req_packed_command(cmd)
    }

    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        self.round_trips += 1;
        self.inner.req_packed_commands(cmd, offset, count)
    }

    fn get_db(&self) -> i64 {
        self.inner.get_db()
    }

    fn supports_pipelining(&self) -> bool {
        self.inner.supports_pipelining()
    }

    fn check_connection(&mut self) -> bool {
        self.inner.check_connection()
    }

    fn is_open(&self) -> bool {
        self.inner.is_open()
    }
}

pub struct Row {
    pub name: &'static str,
    /// Round trips of a call while the script is cached.
    pub warm: usize,
    /// Round trips of a call right after SCRIPT FLUSH.
    pub flushed: usize,
    /// Whether every repetition counted the same.
    pub steady: bool,
}

/// Repetitions of each count.
const REPEATS: usize = 5;

pub fn run(server: &Server) -> Vec<Row> {
    let mut con = server.connection();
    let prepared = redis::Script::new(pad_100::SCRIPT.source());
    type Call<'a> = Box<dyn Fn(&mut dyn ConnectionLike) + 'a>;
    let variants: Vec<(&'static str, Call)> = vec![
        (
            "typed `invoke` (default: EVAL on NOSCRIPT)",
            Box::new(|con| {
                pad_100(KEY).invoke(con).expect("invoke");
            }),
        ),
        (
            "typed `invoke`, `NoScriptFallback::Load` (SCRIPT LOAD + EVALSHA pipelined)",
            Box::new(|con| {
                pad_100(KEY)
                    .on_noscript(NoScriptFallback::Load)
                    .invoke(con)
                    .expect("invoke");
            }),
        ),
        (
            "redis-rs `Script::invoke` (EVALSHA, SCRIPT LOAD, EVALSHA)",
            Box::new(|con| {
                prepared
                    .key(KEY)
                    .invoke::<i64>(con)
                    .expect("Script::invoke");
            }),
        ),
    ];
    let mut rows = Vec::new();
    for (name, call) in variants {
        let mut counts = Vec::new();
        for _ in 0..REPEATS {
            pad_100::SCRIPT.load(&mut con).expect("SCRIPT LOAD");
            let warm = trips(&mut con, &call);
            redis::cmd("SCRIPT")
                .arg("FLUSH")
                .exec(&mut con)
                .expect("SCRIPT FLUSH");
            let flushed = trips(&mut con, &call);
            counts.push((warm, flushed));
        }
        rows.push(Row {
            name,
            warm: counts[0].0,
            flushed: counts[0].1,
            steady: counts.iter().all(|c| *c == counts[0]),
        });
    }
    rows
}

fn trips(con: &mut Connection, call: &dyn Fn(&mut dyn ConnectionLike)) -> usize {
    let mut counting = CountingConnection {
        inner: con,
        round_trips: 0,
    };
    call(&mut counting);
    counting.round_trips
}

/// The section's rows, one a call: the typed `invoke` first, redis-rs's
/// `Script::invoke` third.
impl Part for Vec<Row> {
    fn section(&self) -> Section {
        Section::Noscript
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let _ = writeln!(
            md,
            "Round trips of one call, counted by a `redis::ConnectionLike` wrapper around the \
             connection (each `req_packed_command` or `req_packed_commands` is one), while the \
             script is cached and right after `SCRIPT FLUSH`; five times each.\n"
        );
        table_head(
            md,
            [
                "call",
                "round trips, cached",
                "after SCRIPT FLUSH",
                "extra",
                "same each time",
            ],
        );
        for row in self {
            table_row(
                md,
                [
                    row.name.to_string(),
                    row.warm.to_string(),
                    row.flushed.to_string(),
                    (row.flushed - row.warm).to_string(),
                    if row.steady { "yes" } else { "no" }.to_owned(),
                ],
            );
        }
        let _ = writeln!(md);
    }

    fn targets(&self) -> Vec<Target> {
        let typed = &self[0];
        let extra = typed.flushed - typed.warm;
        vec![Target {
            what: "extra round trips of `invoke` after SCRIPT FLUSH".into(),
            goal: "1 (redis-rs `Script::invoke`: 2)",
            measured: format!("{extra} (redis-rs: {})", self[2].flushed - self[2].warm),
            verdict: if extra == 1 && typed.steady {
                "met"
            } else {
                "**not met**"
            },
        }]
    }
}
