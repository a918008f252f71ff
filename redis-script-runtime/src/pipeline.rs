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
pub trait ScriptPipeline {
    /// Queues `call` as `EVAL`. Fails, queueing nothing, if one of its keys or
    /// fixed arguments did not encode to exactly one value.
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error>;
}

impl ScriptPipeline for Pipeline {
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error> {
        Ok(self.add_command(call.eval_cmd()?))
    }
}
