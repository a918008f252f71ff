//! The top floor: calls of bindings, built on everything below.
//!
//! What a call does when the server lacks its script or library, decided
//! once in [`recovery`], below everything that sends calls; one call's
//! [`invocation`] (EVALSHA, carrying out that recovery, slot checks), a
//! [`batch`] of calls with a result each, calls queued in a redis-rs
//! [`pipeline`], a [`prefixed_connection`] that prefixes every call's keys,
//! and the calls of a cluster pipeline that a [`redirect`] refused; with
//! the feature `fred`, [`fred`] carries calls and batches on fred's clients.

pub(crate) mod batch;
#[cfg(feature = "fred")]
pub(crate) mod fred;
pub(crate) mod invocation;
pub(crate) mod pipeline;
pub(crate) mod prefixed_connection;
pub(crate) mod recovery;
pub(crate) mod redirect;
