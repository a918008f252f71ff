//! Heap allocations per warm sequential call, counted by the harness's
//! global allocator on the calling thread.

use redis::Connection;

use crate::alloc::{self, Counts};
use crate::bindings::pad_100;
use crate::sequential::KEY;
use crate::server::Server;

/// Calls counted per variant (after as many to warm up).
pub const CALLS: u64 = 2_000;

pub struct Row {
    pub name: &'static str,
    /// Allocator calls over [`CALLS`] calls.
    pub counts: Counts,
}

impl Row {
    pub fn per_call(&self) -> (f64, f64) {
        (
            self.counts.allocs as f64 / CALLS as f64,
            self.counts.reallocs as f64 / CALLS as f64,
        )
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
            Box::new(|con| pad_100(KEY).invoke(con).expect("invoke")),
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
            Box::new(|con| {
                redis::cmd("EVALSHA")
                    .arg(pad_100::SCRIPT.sha1())
                    .arg(1)
                    .arg(KEY)
                    .query(con)
                    .expect("EVALSHA")
            }),
        ),
    ];
    let mut rows = Vec::new();
    for (name, mut call) in variants {
        for _ in 0..CALLS {
            call(&mut con);
        }
        let ((), counts) = alloc::count(|| {
            for _ in 0..CALLS {
                std::hint::black_box(call(&mut con));
            }
        });
        rows.push(Row { name, counts });
    }
    rows
}
