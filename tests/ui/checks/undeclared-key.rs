// A key built from ARGV, not passed in KEYS: a warning at the file, an
// error here by deny. A crate whose scripts run on Redis Cluster says
// `cluster = true` in [package.metadata.redis-script], which makes it an error.
#![deny(deprecated)]

use redis_script::redis_script;

#[redis_script(file = "tests/ui/lua/checks/key_from_argv.lua", keys = 0)]
fn job_state(job: &str) -> Option<String>;

fn main() {}
