//! Integration tests against a real redis-server that each test starts itself.
//! One binary with modules: on 2 cores, every extra test binary is another link.

// With `redis-2`, the tests use redis-rs 2.0 under its usual name.
#[cfg(feature = "redis-2")]
extern crate redis2 as redis;

use redis_script_test::cluster as cluster_server;
use redis_script_test::server;

mod analyzer;
mod bad_input;
mod batch;
mod cluster;
mod counter;
mod faults;
#[cfg(feature = "fred")]
mod fred;
mod functions;
mod headers;
mod idiomatic;
mod impl_bindings;
mod includes;
mod invocation;
mod json;
mod key_prefix;
mod observe;
mod pools;
mod probe;
mod quick_start;
mod rebuild;
mod recipes;
mod redis_rs_choice;
mod redis_rs_features;
mod redis_rs_versions;
mod registry;
mod replicas;
mod reply_mapping;
mod restarts;
mod sentinel;
mod target_servers;
mod test_attribute;
mod test_crate;
mod variadic_keys;
