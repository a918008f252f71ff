//! Script calls queued in a `redis::Pipeline`.

use redis::{Arg, Pipeline};

use super::invocation::Invocation;
use crate::embedded::script::Script;
use crate::error::Error;
use crate::observe::ObservedPipeline;

/// Queues script calls in a [`redis::Pipeline`], atomic (`MULTI`/`EXEC`) or not.
///
/// Neither method queues a call that can fail with NOSCRIPT because the
/// server's script cache was emptied (a `SCRIPT FLUSH`, a restart, a
/// failover): inside MULTI, an EVALSHA of a missing script would fail only at
/// EXEC while the other commands commit without it, and outside MULTI it
/// would fail that call alone, halfway through the pipeline.
///
/// - [`evalsha_script`](Self::evalsha_script), the one to prefer, queues
///   EVALSHA, preceded once per distinct script per pipeline by a
///   `SCRIPT LOAD` of its source, whose reply is left out of the pipeline's
///   results. The source crosses the wire, and the server hashes it, once
///   per pipeline and script, however many calls of it the pipeline holds.
/// - [`eval_script`](Self::eval_script) queues EVAL with the full source:
///   sent and hashed again for every call, which costs more the longer the
///   script (at 64 calls per pipeline, measured with redis-benchmark, the
///   server runs 8% fewer EVALs than EVALSHAs of a 97-byte script, 68%
///   fewer of a 4 KiB one), but it has no window at all (see below) and
///   needs no SCRIPT LOAD, which some proxies refuse.
///
/// The window of `evalsha_script`: a pipeline that is not atomic lets the
/// server serve other clients between its commands, so a `SCRIPT FLUSH`
/// landing exactly between the SCRIPT LOAD and an EVALSHA fails that one
/// call with NOSCRIPT (its error is in its place in the replies; the other
/// commands run). In an atomic pipeline this cannot happen: MULTI/EXEC runs
/// the SCRIPT LOAD and the calls with nothing in between (Redis 7.0 and
/// Valkey 8.1 and 9.1 accept SCRIPT LOAD inside MULTI; the tests run it there). Where
/// SCRIPT LOAD is refused (some proxies, an ACL user without
/// `script|load`), its error fails the pipeline's query: use `eval_script`
/// there.
///
/// Errors: the replies of a `redis::Pipeline` are redis-rs's, so a failed
/// command fails the query with redis-rs's error, which names no script
/// (a refused SCRIPT LOAD reads `NOPERM ... 'script|load'`), and outside
/// MULTI the calls after it may still have run: retrying the whole
/// pipeline would apply them twice. To get every call's own result, each
/// error named by its binding and with [`Error::applied`] right per call,
/// run the calls as a [`Batch`](crate::Batch) instead; or add
/// `ignore_errors()` to the pipeline and convert each reply with
/// [`Invocation::decode`].
///
/// So, where another client may flush the script cache (an operator, a
/// deploy script, a failover):
///
/// - in a plain pipeline, use `eval_script`: no flush can fail its calls;
/// - in an atomic pipeline (`pipe.atomic()`), use `evalsha_script`: no flush
///   can land between its SCRIPT LOAD and its calls.
///
/// With those choices, 100,000 calls in pipelines of 100, while another
/// client sends `SCRIPT FLUSH` every millisecond, all succeed, each applied
/// once, on Redis 7.0, Valkey 8.1 and Valkey 9.1 (`cargo test --test integration --
/// faults::flush_storm`); the same test suite places a flush between the
/// SCRIPT LOAD and an EVALSHA of a plain pipeline and shows that call
/// failing with NOSCRIPT.
///
/// A call of a Redis Functions binding (`#[redis_function]`) is queued as
/// FCALL (or FCALL_RO) by both methods, without loading its library: a
/// library is compiled on every FUNCTION LOAD, and a load in an ignored slot
/// that fails ("already exists") would fail the whole query. Functions
/// persist on the server (RDB, AOF, replicas) and no SCRIPT FLUSH drops
/// them; load them at start-up with [`load_all`](crate::load_all). On a
/// server without the library, such a call's reply is the error "Function
/// not found", in its place: the function did not run.
///
/// Script calls and ordinary commands mix freely; their replies come back in
/// order and convert as usual for `Pipeline::query`, or one by one with
/// [`Invocation::decode`] from a `Vec<redis::Value>`.
///
/// ```ignore
/// use redis_script::ScriptPipeline;
///
/// let mut pipe = redis::pipe();
/// pipe.atomic();
/// pipe.evalsha_script(&acquire_lock("lock:a", 10, &token))?;
/// pipe.incr("attempts", 1);
/// let (taken, attempts): (Option<String>, i64) = pipe.query(&mut con)?;
/// ```
///
/// In a cluster, a `redis::cluster::ClusterPipeline` (feature `cluster`)
/// takes script calls too: it sends each command to the node of its first
/// key, so each call's keys must share a slot, which both methods check
/// before queueing ([`Invocation::check_slots`]). There `evalsha_script`
/// queues EVAL, as `eval_script` does: a SCRIPT LOAD has no key, so the
/// cluster pipeline cannot send it to the node of the calls it serves.
/// While slots move, a cluster pipeline does not follow MOVED or ASK: its
/// query fails, and [`redirected_commands`](crate::redirected_commands)
/// names the calls that ran nowhere, to run again with `invoke`. A
/// `redis::Pipeline` sent over an async cluster connection goes to one node
/// as a whole, the node of its keyed commands, SCRIPT LOADs included: every
/// keyed command in it must then be in one slot, or the client refuses it.
///
/// The trait is sealed: it is implemented for `redis::Pipeline` and
/// `redis::cluster::ClusterPipeline` only (through a private trait, so that
/// a call on any other type is an error that says where script calls go,
/// and names the feature `cluster` for a cluster pipeline), and cannot be
/// implemented outside this crate, so that methods can be added to it
/// without breaking anyone.
pub trait ScriptPipeline: sealed::Queue {
    /// Queues `call` as `EVALSHA`, after a `SCRIPT LOAD` of its script if
    /// this pipeline does not hold one yet (whose reply is ignored). Fails,
    /// queueing nothing, if one of its keys or fixed arguments did not
    /// encode to exactly one value (or, in a cluster pipeline, where it
    /// queues EVAL, if its keys span hash slots).
    ///
    /// Finding an earlier SCRIPT LOAD looks through the queued commands from
    /// the first, so the load of a pipeline's first script is found at
    /// once. A load that this method queued is recognized by the EVALSHA
    /// right after it, without reading the source again; one queued by hand
    /// counts if its source is the script's, byte for byte.
    fn evalsha_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error>;

    /// Queues `call` as `EVAL`, with the full source. Fails, queueing
    /// nothing, if one of its keys or fixed arguments did not encode to
    /// exactly one value (or, in a cluster pipeline, if its keys span hash
    /// slots).
    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error>;

    /// This pipeline, to be run in a span and counted by the pipeline
    /// metrics (see [`observe`](crate::observe)): its `query` (and, for a
    /// `redis::Pipeline`, `query_async`) returns what the pipeline's own
    /// would. Queueing calls counts them either way.
    fn observed(&self) -> ObservedPipeline<'_, Self>
    where
        Self: Sized,
    {
        ObservedPipeline::new(self)
    }
}

/// The private supertrait that seals [`ScriptPipeline`] and does its work:
/// public, so it can bound a public trait, in a module nobody outside can
/// name. `ScriptPipeline` is implemented for every type that implements it,
/// so that rustc reports a method call on another type as this trait's
/// unmet bound, with the message below, instead of a bare "no method named
/// `evalsha_script`".
mod sealed {
    use crate::call::invocation::Invocation;
    use crate::error::Error;

    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a pipeline that takes script calls",
        label = "not a `redis::Pipeline` or `redis::cluster::ClusterPipeline`",
        note = "script calls go in a `redis::Pipeline`, or in a `redis::cluster::ClusterPipeline` \
                with redis-script's feature `cluster` on (`features = [\"cluster\", ...]`)"
    )]
    pub trait Queue {
        /// [`ScriptPipeline::evalsha_script`](super::ScriptPipeline::evalsha_script).
        fn queue_evalsha<T>(&mut self, call: &Invocation<T>) -> Result<(), Error>;

        /// [`ScriptPipeline::eval_script`](super::ScriptPipeline::eval_script).
        fn queue_eval<T>(&mut self, call: &Invocation<T>) -> Result<(), Error>;
    }
}

impl<P: sealed::Queue> ScriptPipeline for P {
    fn evalsha_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error> {
        self.queue_evalsha(call)?;
        Ok(self)
    }

    fn eval_script<T>(&mut self, call: &Invocation<T>) -> Result<&mut Self, Error> {
        self.queue_eval(call)?;
        Ok(self)
    }
}

impl sealed::Queue for Pipeline {
    fn queue_evalsha<T>(&mut self, call: &Invocation<T>) -> Result<(), Error> {
        call.check_parameters()?;
        let script = call.script();
        // A function's library is not loaded per pipeline: see the trait docs.
        if script.library().is_none() && !loads(self, script) {
            self.add_command(script.load_cmd()).ignore();
        }
        call.queue_in(self, false)?;
        crate::observe::queued(script);
        Ok(())
    }

    fn queue_eval<T>(&mut self, call: &Invocation<T>) -> Result<(), Error> {
        call.queue_in(self, true)?;
        crate::observe::queued(call.script());
        Ok(())
    }
}

#[cfg(feature = "cluster")]
impl sealed::Queue for redis::cluster::ClusterPipeline {
    fn queue_evalsha<T>(&mut self, call: &Invocation<T>) -> Result<(), Error> {
        // A keyless SCRIPT LOAD cannot be routed to the call's node.
        self.queue_eval(call)
    }

    fn queue_eval<T>(&mut self, call: &Invocation<T>) -> Result<(), Error> {
        call.check_slots()?;
        self.add_command(call.eval_cmd()?);
        crate::observe::queued(call.script());
        Ok(())
    }
}

/// Whether `pipe` already holds a `SCRIPT LOAD` of `script`'s source.
///
/// The cheap tests come first: the command's name, then the source's
/// length. A load of the right length directly followed by an EVALSHA of
/// the script's SHA1, the pair that `evalsha_script` queues, is taken as
/// this script's without comparing the source: a long source would
/// otherwise be compared byte for byte on every call (4 KiB: about as long
/// as packing the call). Any other load of the right length is compared in
/// full. (Only a pipeline that loads one script and then EVALSHAs another
/// of the same length, which could fail with NOSCRIPT already, can mislead
/// this.)
fn loads(pipe: &Pipeline, script: &Script) -> bool {
    let source = script.source().as_bytes();
    let mut commands = pipe.cmd_iter().peekable();
    while let Some(cmd) = commands.next() {
        let Some(loaded) = loaded_source(cmd.args_iter()) else {
            continue;
        };
        if loaded.len() == source.len()
            && (commands
                .peek()
                .is_some_and(|next| calls_sha1(next.args_iter(), script.sha1()))
                || loaded == source)
        {
            return true;
        }
    }
    false
}

// The two functions below read a queued command through its arguments: a
// pipeline yields `&Cmd` in redis-rs 1.x and `CmdRef` in 2.0, and both
// iterate their arguments the same way.

/// The source that a command with `args` loads, if it is `SCRIPT LOAD <source>`.
fn loaded_source<'a>(mut args: impl ExactSizeIterator<Item = Arg<&'a [u8]>>) -> Option<&'a [u8]> {
    if args.len() != 3 {
        return None;
    }
    let (Some(Arg::Simple(name)), Some(Arg::Simple(sub)), Some(Arg::Simple(source))) =
        (args.next(), args.next(), args.next())
    else {
        return None;
    };
    (name.eq_ignore_ascii_case(b"SCRIPT") && sub.eq_ignore_ascii_case(b"LOAD")).then_some(source)
}

/// Whether a command with `args` is `EVALSHA` (or `EVALSHA_RO`) of `sha1`,
/// as this crate writes SHA1s (lowercase; another spelling only misses the
/// shortcut).
fn calls_sha1<'a>(mut args: impl Iterator<Item = Arg<&'a [u8]>>, sha1: &str) -> bool {
    match (args.next(), args.next()) {
        (Some(Arg::Simple(name)), Some(Arg::Simple(called))) => {
            (name.eq_ignore_ascii_case(b"EVALSHA") || name.eq_ignore_ascii_case(b"EVALSHA_RO"))
                && called == sha1.as_bytes()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use redis::{Arg, Pipeline};

    use super::ScriptPipeline;
    use crate::call::invocation::Invocation;
    use crate::embedded::script::{Script, ScriptParts};
    use crate::embedded::shape::Shape;

    const fn script(name: &'static str, source: &'static str, sha1: &'static str) -> Script {
        Script::from_parts(ScriptParts {
            name,
            binding_path: "tests::script",
            function: None,
            file: "test.lua",
            source,
            sha1,
            key_names: &[],
            arg_names: &[],
            variadic_keys: false,
            variadic: false,
            reply_type: "i64",
            reply_shape: &Shape::Any,
            flags: &[],
            read_only: false,
        })
    }

    // Sources of one length, told apart by their last byte only (with
    // stand-ins for their SHA1s).
    static ONE: Script = script("one", "return 1", "sha-one");
    static TWO: Script = script("two", "return 2", "sha-two");

    /// Each queued command's first arguments, as text.
    fn queued(pipe: &Pipeline) -> Vec<String> {
        pipe.cmd_iter()
            .map(|cmd| {
                let args: Vec<String> = cmd
                    .args_iter()
                    .take(3)
                    .map(|arg| match arg {
                        Arg::Simple(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                        _ => unreachable!("no cursor"),
                    })
                    .collect();
                args.join(" ")
            })
            .collect()
    }

    #[test]
    fn each_script_is_loaded_once_before_its_first_call() {
        let mut pipe = redis::pipe();
        pipe.evalsha_script(&Invocation::<i64>::new(&ONE)).unwrap();
        pipe.evalsha_script(&Invocation::<i64>::new(&TWO)).unwrap();
        pipe.cmd("PING");
        pipe.evalsha_script(&Invocation::<i64>::new(&ONE)).unwrap();
        pipe.evalsha_script(&Invocation::<i64>::new(&TWO)).unwrap();
        assert_eq!(
            queued(&pipe),
            [
                "SCRIPT LOAD return 1",
                "EVALSHA sha-one 0",
                "SCRIPT LOAD return 2",
                "EVALSHA sha-two 0",
                "PING",
                "EVALSHA sha-one 0",
                "EVALSHA sha-two 0",
            ]
        );
    }

    #[test]
    fn a_load_queued_by_hand_counts_only_for_its_own_source() {
        let mut pipe = redis::pipe();
        pipe.add_command(ONE.load_cmd());
        pipe.evalsha_script(&Invocation::<i64>::new(&TWO)).unwrap();
        pipe.evalsha_script(&Invocation::<i64>::new(&ONE)).unwrap();
        assert_eq!(
            queued(&pipe),
            [
                "SCRIPT LOAD return 1",
                "SCRIPT LOAD return 2",
                "EVALSHA sha-two 0",
                "EVALSHA sha-one 0",
            ]
        );
    }
}
