//! The ground floor beside `embedded`: how values and calls travel, with
//! no knowledge of bindings or errors.
//!
//! A call [`packed`] in RESP once, cluster hash [`slot`]s, the
//! [`key_prefix`] put before every key, [`json`] values (feature `json`),
//! and the servers' [`refusals`]: the words by which a server refuses a
//! call before its script could write.

#[cfg(feature = "json")]
pub(crate) mod json;
pub(crate) mod key_prefix;
pub(crate) mod packed;
pub(crate) mod refusals;
pub(crate) mod slot;
