//! The recipes' invariants under real concurrent clients.

mod autocomplete;
mod dedup;
mod leaderboard;
mod lock;
mod marketplace;
mod red_envelope;
mod semaphore;
mod sharded_list;
mod status;
