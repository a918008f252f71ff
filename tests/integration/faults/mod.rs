//! Faults, each against real servers on loopback, on Redis and Valkey alike:
//! what a binding does when the server's script cache is flushed under load,
//! when scripts are evicted, when the server restarts, when a script runs
//! too long, when a replica without the script is promoted, when a call
//! times out or the ACL refuses it, and when a cluster's slots move or a
//! cluster primary fails. Every loop is bounded in count and in time.
//!
//! One module per fault; `applied.rs` checks [`redis_script::Error::applied`]
//! on the outcomes that need no fault at all.

mod applied;
mod cluster;
mod eviction;
mod flush_storm;
mod noperm;
mod promoted_replica;
mod restart;
mod slow_script;
mod timeout;
