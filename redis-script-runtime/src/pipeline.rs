//! Script calls queued in a `redis::Pipeline`.

use redis::Pipeline;

use crate::error::Error;
use crate::invocation::Invocation;

/// Queues script calls in a [`redis::Pipeline`], atomic (`MULTI`/`EXEC`) or not.
///
/// A call is queued as `EVAL` with the full source, never as EVALSHA: a
/// missing script cannot fail the pipeline halfway (inside MULTI an EVALSHA of
/// a missing script fails only at EXEC, while the other commands commit).
/// Script calls and ordinary commands mix freely; their replies come back in
/// order and convert as usual for `Pipeline::query`, or one by one with
/// [`Invocation::decode`] from a `Vec<redis::Value>`.
///
/// ```ignore
/// use redis_script::ScriptPipeline;
///
/// let mut pipe = redis::pipe();
/// pipe.atomic();
/// pipe.eval_script(&acquire_lock("lock:a", 10, &token))?;
/// pipe.incr("attempts", 1);
/// let (taken, attempts): (Option<String>, i64) = pipe.query(&mut con)?;
/// ```
///
/// In a cluster, a `redis::cluster::ClusterPipeline` (feature `cluster`)
/// takes script calls too: it sends each command to the node of its first
/// key, so each call's keys must share a slot, which `eval_script` checks
/// before queueing ([`Invocation::check_slots`]). A `redis::Pipeline` sent
/// over an async cluster connection goes to one node as a whole: every
/// command in it must then be in one slot, or the client refuses it.
///
/// The trait is sealed: it is implemented for `redis::Pipeline` and
/// `redis::cluster::ClusterPipeline` only, and cannot be implemented outside
/// this crate, so that methods can be added to it without breaking anyone.
pub trait ScriptPipeline: sealed::Sealed {
    /// Queues `call` as `EVAL`. Fails, queueing nothing, if one of its keys or
    /// fixed arguments did not encode to exactly one value (or, in a cluster
    /// pipeline, if its keys span hash slots).
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error>;
}

/// The private supertrait that seals [`ScriptPipeline`]: public, so it can
/// bound a public trait, in a module nobody outside can name.
mod sealed {
    pub trait Sealed {}

    impl Sealed for redis::Pipeline {}

    #[cfg(feature = "cluster")]
    impl Sealed for redis::cluster::ClusterPipeline {}
}

impl ScriptPipeline for Pipeline {
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error> {
        Ok(self.add_command(call.eval_cmd()?))
    }
}

#[cfg(feature = "cluster")]
impl ScriptPipeline for redis::cluster::ClusterPipeline {
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error> {
        call.check_slots()?;
        Ok(self.add_command(call.eval_cmd()?))
    }
}
