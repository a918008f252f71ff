//! A list spread over many small Redis lists ("shards"), with pushes and pops
//! at both ends, and blocking pops with a timeout.
//!
//! A [`ShardedList`] keeps at most `shard_size` items in each shard and opens
//! a new shard at an end when that end's shard is full, so no key grows large
//! (short lists have a compact encoding, and a large key is slow to delete,
//! migrate or replicate as one piece). Every push and
//! pop is one Lua script, so it sees and changes the shards and the end
//! pointers atomically.
//!
//! # Key layout
//!
//! | key | type | content |
//! |---|---|---|
//! | `{<name>}:first` ([`ShardedList::first_key`]) | string | the id of the leftmost shard; absent means 0 |
//! | `{<name>}:last` ([`ShardedList::last_key`]) | string | the id of the rightmost shard; absent means 0 |
//! | `{<name>}:<id>` ([`ShardedList::shard_key`]) | list | the items of shard `<id>`, an integer |
//!
//! The braces are a hash tag: every key of one list is in one Redis Cluster
//! slot (below).
//!
//! Shard ids grow to the right: a left push that finds the left shard full
//! opens shard `first - 1`, a right push opens `last + 1`. Shards strictly
//! between the ends are full, the end shards may be partly filled; blocking
//! pops (below) can take an item from, or leave a dummy in, any shard. An
//! empty list is `first == last` with that shard empty: Redis deletes empty
//! lists, so once a pop has removed any dummies left behind, no shard key
//! remains, only the two pointers.
//!
//! # Guarantees
//!
//! - Nothing is lost and nothing is delivered twice: each item is removed by
//!   exactly one pop, whatever the mix of pushes, pops and blocking pops from
//!   any number of clients.
//! - Single pushes and pops keep list order: [`push`](ShardedList::push) at
//!   [`End::Right`] then [`pop`](ShardedList::pop) at [`End::Left`] is first
//!   in, first out, across shards;
//!   items pushed in one call keep their order, as with `LPUSH`/`RPUSH`.
//! - The reserved [`DUMMY`] value is never delivered as an item: pushing it is
//!   an `Err` (checked before anything is sent, and again by the script), and
//!   every pop discards it.
//! - A blocking pop returns `Ok(None)` once its timeout has passed on a list
//!   that stayed empty.
//!
//! Blocking pops loosen the order: BLPOP/BRPOP waits on one shard, and an item
//! that arrives while the end moves may be taken from that shard rather than
//! from the current end. Such an item is still delivered exactly once.
//!
//! # Blocking pops
//!
//! Redis can only block on whole keys, and the end shard changes. So
//! [`blocking_pop`](ShardedList::blocking_pop) loops, within its timeout:
//!
//! 1. a non-blocking pop (one script call); an item ends the loop;
//! 2. `GET` the end pointer, to learn which shard to wait on;
//! 3. one round trip with a non-transactional pipeline of two commands: the
//!    guard script [`sharded_list_guard_script()`] (sent as `EVAL`, so a missing
//!    script cannot fail the pipeline halfway) and then `BLPOP`/`BRPOP` on
//!    that shard for at most a second. If the shard is no longer the end, or
//!    is empty while other shards may hold items, the guard pushes the
//!    [`DUMMY`] into it, so the blocking pop returns at once and the loop
//!    tries again. The pipeline cannot be a `MULTI` transaction: inside one,
//!    `BLPOP` does not block.
//!
//! Between the guard and BLPOP another client may change the ends; then BLPOP
//! may wait on a shard no push fills, for at most one second, after which the
//! loop reads the end again. Dummies that a BLPOP did not take (another
//! client's BLPOP took an item instead) sit in the list and are removed by
//! whichever pop reaches them.
//!
//! One dummy value for all clients, rejected by push, is what makes
//! discarding it safe: with a random dummy per process, a dummy left in a
//! shard by one process would be delivered as an item to another. A dummy
//! can stay outside the list (in a shard beyond an end, where no pop looks)
//! only if a client's connection breaks between its guard and its BLPOP,
//! which travel in one write.
//!
//! # Redis Cluster
//!
//! The scripts read and write shard keys they compute (`{<name>}:<id>`),
//! which are not declared in KEYS: which shard an operation reaches is only
//! known inside the script. A cluster routes a script and checks its slot by
//! the declared keys only, and fails a script that reaches an undeclared key
//! of another slot ("Script attempted to access a non local key in a cluster
//! node"), possibly after it wrote. So every key of a list carries the hash
//! tag `{<name>}`: the pointer keys and every shard hash to one slot, the
//! declared pointer keys route each script (and each BLPOP on a shard) to the
//! node that owns all of them, and the list works on a cluster. The whole
//! list lives on that one node: sharding here bounds the size of each key,
//! it does not spread a list over nodes; different lists spread.
//!
//! ```
//! # use redis_script_test::server;
//! # let server = server::RedisServer::start();
//! # let mut con = server.connection();
//! use std::time::Duration;
//! use redis_script::recipes::sharded_list::{End, ShardedList};
//!
//! let jobs = ShardedList::new("jobs", 3);
//! jobs.push(&mut con, End::Right, &["a", "b", "c", "d", "e"])?; // shards: [a b c] [d e]
//! jobs.push(&mut con, End::Left, &["z"])?; // a new shard on the left: [z] [a b c] [d e]
//!
//! assert_eq!(jobs.pop::<String>(&mut con, End::Left)?.as_deref(), Some("z"));
//! assert_eq!(jobs.pop::<String>(&mut con, End::Right)?.as_deref(), Some("e"));
//! let next: Option<String> = jobs.blocking_pop(&mut con, End::Left, Duration::from_secs(1))?;
//! assert_eq!(next.as_deref(), Some("a"));
//!
//! // Drain it; a blocking pop on the empty list times out with None.
//! while jobs.pop::<String>(&mut con, End::Left)?.is_some() {}
//! assert_eq!(jobs.blocking_pop::<String>(&mut con, End::Right, Duration::from_millis(100))?, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use redis::{ConnectionLike, FromRedisValue, ParsingError, RedisWrite, ToRedisArgs, Value};

use crate::recipes::retry::Deadline;
use crate::recipes::{query, refused, reply_error, slot_tag};
use crate::{Error, ErrorKind, Invocation, KeyPrefix, ScriptPipeline, redis_script};

/// The reserved value that blocking pops push into a shard to wake
/// themselves up. It can never be an item: pushing it is an `Err`, and every
/// pop skips it. The same for every client, so any client can recognise a
/// dummy that another one left.
pub const DUMMY: &str = "redis-script:sharded-list:dummy:7c3e9f0a51d24b86";

/// The most items one push script call takes. A script holds the server for
/// its whole run, so a long push is cut into calls of this size, letting
/// other clients (blocked pops among them) in between.
pub const PUSH_CHUNK: usize = 64;

/// The longest a single BLPOP/BRPOP of a blocking pop waits: after it, the
/// loop reads the end again, in case the end moved to another shard.
const MAX_WAIT: Duration = Duration::from_secs(1);

/// Redis reads a BLPOP timeout in seconds with millisecond resolution, and 0
/// means "wait forever": never send less than a millisecond.
const MIN_WAIT: Duration = Duration::from_millis(1);

/// The names of operations in errors that are not a script's own.
const PUSH: &str = "ShardedList::push";
const BLOCKING_POP: &str = "ShardedList::blocking_pop";
const GUARD_AND_WAIT: &str = "the guard and BLPOP/BRPOP pipeline of ShardedList::blocking_pop";

/// An end of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The head: `LPUSH`, `LPOP`, `BLPOP`.
    Left,
    /// The tail: `RPUSH`, `RPOP`, `BRPOP`.
    Right,
}

impl End {
    /// The name the scripts take in ARGV: `"left"` or `"right"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            End::Left => "left",
            End::Right => "right",
        }
    }

    fn blocking_pop_command(self) -> &'static str {
        match self {
            End::Left => "BLPOP",
            End::Right => "BRPOP",
        }
    }
}

impl ToRedisArgs for End {
    fn write_redis_args<W>(&self, out: &mut W)
    where
        W: ?Sized + RedisWrite,
    {
        out.write_arg(self.as_str().as_bytes());
    }
}

/// Pushes `items` onto `end` of the list whose end pointers are `first` and
/// `last` and whose shards are `<prefix><id>`, opening shards of at most
/// `shard_size` items as needed. Replies how many items it pushed (all);
/// an error, pushing nothing, if an item equals `dummy`.
///
/// Prefer [`ShardedList::push`], which cuts items into chunks, or
/// [`ShardedList::push_chunk_call`], which fills in the keys.
#[redis_script(file = "scripts/sharded_list_push.lua", keys = 2)]
pub fn sharded_list_push_script<T: ToRedisArgs>(
    first: &str,
    last: &str,
    prefix: &str,
    end: End,
    shard_size: usize,
    dummy: &str,
    #[variadic] items: &[T],
) -> usize;

/// Pops one item from `end`, skipping dummies and moving the end past empty
/// shards; replies `None` when the list is empty.
///
/// Prefer [`ShardedList::pop`] or [`ShardedList::pop_call`].
#[redis_script(file = "scripts/sharded_list_pop.lua", keys = 2)]
pub fn sharded_list_pop_script<T: FromRedisValue>(
    first: &str,
    last: &str,
    prefix: &str,
    end: End,
    dummy: &str,
) -> Option<T>;

/// The guard a blocking pop runs just before BLPOP/BRPOP on shard `shard`:
/// pushes `dummy` into that shard, replying `true`, when the shard is no
/// longer the end or is an emptied end, so the blocking pop returns at once.
#[redis_script(file = "scripts/sharded_list_guard.lua", keys = 2)]
pub fn sharded_list_guard_script(
    first: &str,
    last: &str,
    prefix: &str,
    end: End,
    shard: &str,
    dummy: &str,
) -> bool;

/// A list named `name`, stored in shards of at most `shard_size` items.
///
/// Holds only names: create one wherever needed. Clients of one list should
/// agree on the shard size (another size only changes how full new shards get). See the [module docs](self) for the
/// key layout, the guarantees and an example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedList {
    first_key: String,
    last_key: String,
    shard_prefix: String,
    shard_size: usize,
}

impl ShardedList {
    /// The list `name` with at most `shard_size` items per shard.
    ///
    /// The shard size is a parameter rather than the server's configuration:
    /// scripts cannot run `CONFIG` in Redis 7, and Redis 7 limits list nodes
    /// by bytes, not entries. Choose it for the largest value you want one
    /// shard to be; each shard is one Redis list.
    ///
    /// # Panics
    ///
    /// If `shard_size` is 0, as `slice::chunks(0)` does, or `name` is empty
    /// or starts with `}` (it would not be a hash tag).
    pub fn new(name: impl Into<String>, shard_size: usize) -> ShardedList {
        assert!(
            shard_size > 0,
            "a sharded list needs a shard size of at least 1"
        );
        let tag = slot_tag("sharded list", &name.into());
        ShardedList {
            first_key: format!("{tag}:first"),
            last_key: format!("{tag}:last"),
            shard_prefix: format!("{tag}:"),
            shard_size,
        }
    }

    /// This list under `prefix` (see [`KeyPrefix`]): its end pointers and
    /// every shard key become the prefix followed by the key. The shard keys
    /// are built in the scripts from a prefix passed in ARGV, which
    /// [`Invocation::key_prefix`] does not touch: prefix a sharded list
    /// here, never through its calls (or a
    /// [`PrefixedConnection`](crate::PrefixedConnection)), or its shards
    /// would stay outside the namespace.
    pub fn with_key_prefix(self, prefix: &KeyPrefix) -> Self {
        ShardedList {
            first_key: prefix.apply(&self.first_key),
            last_key: prefix.apply(&self.last_key),
            shard_prefix: prefix.apply(&self.shard_prefix),
            shard_size: self.shard_size,
        }
    }

    /// The most items one shard holds.
    pub fn shard_size(&self) -> usize {
        self.shard_size
    }

    /// The key holding the id of the leftmost shard, `{<name>}:first`.
    pub fn first_key(&self) -> &str {
        &self.first_key
    }

    /// The key holding the id of the rightmost shard, `{<name>}:last`.
    pub fn last_key(&self) -> &str {
        &self.last_key
    }

    /// The key of shard `id`, `{<name>}:<id>`.
    pub fn shard_key(&self, id: i64) -> String {
        format!("{}{id}", self.shard_prefix)
    }

    /// Pushes `items` onto `end`, [`PUSH_CHUNK`] items per script call, and
    /// replies how many were pushed (all of them).
    ///
    /// Each call is atomic, the whole push is not: another client can push or
    /// pop between two chunks. Fails, sending nothing, if an item is the
    /// reserved [`DUMMY`] or does not encode to exactly one Redis value (a
    /// tuple, an `Option::None`); fails after the chunks already pushed if the
    /// connection or server fails.
    ///
    /// ```
    /// # use redis_script_test::server;
    /// # let server = server::RedisServer::start();
    /// # let mut con = server.connection();
    /// use redis_script::recipes::sharded_list::{DUMMY, End, ShardedList};
    ///
    /// let ids = ShardedList::new("ids", 100);
    /// let batch: Vec<u64> = (0..1000).collect();
    /// assert_eq!(ids.push(&mut con, End::Right, &batch)?, 1000); // 16 script calls
    ///
    /// // The dummy is refused before anything is sent.
    /// let words = ShardedList::new("words", 100);
    /// assert!(words.push(&mut con, End::Right, &["a", "b", DUMMY]).is_err());
    /// assert_eq!(words.pop::<String>(&mut con, End::Left)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push<T: ToRedisArgs>(
        &self,
        con: &mut dyn ConnectionLike,
        end: End,
        items: &[T],
    ) -> Result<usize, Error> {
        let items = encode_items(items)?;
        let mut pushed = 0;
        for chunk in items.chunks(PUSH_CHUNK) {
            let count = self.push_chunk_call(end, chunk).invoke(con)?;
            if count != chunk.len() {
                let problem = format!("sent {} items, the script replied {count}", chunk.len());
                return Err(reply_error::<usize>(PUSH, ParsingError::from(problem)));
            }
            pushed += count;
        }
        Ok(pushed)
    }

    /// One push script call of `items` onto `end`, e.g. for
    /// `.invoke_async`. The script pushes all of `items` in one atomic step,
    /// holding the server meanwhile: keep `items` to about [`PUSH_CHUNK`].
    /// The script refuses the whole call if an item is the [`DUMMY`].
    pub fn push_chunk_call<T: ToRedisArgs>(&self, end: End, items: &[T]) -> Invocation<usize> {
        sharded_list_push_script(
            &self.first_key,
            &self.last_key,
            &self.shard_prefix,
            end,
            self.shard_size,
            DUMMY,
            items,
        )
    }

    /// Pops the item at `end`, or `None` when the list is empty: one script
    /// call, see [`pop_call`](Self::pop_call).
    ///
    /// An item that does not convert to `T` is removed all the same and
    /// reported as an `Err`; `Vec<u8>` takes any item.
    pub fn pop<T: FromRedisValue>(
        &self,
        con: &mut dyn ConnectionLike,
        end: End,
    ) -> Result<Option<T>, Error> {
        self.pop_call(end).invoke(con)
    }

    /// The pop script call for `end`, e.g. for `.invoke_async`. It never
    /// replies the [`DUMMY`]: dummies it meets are removed.
    ///
    /// ```
    /// # use redis_script_test::server;
    /// # let server = server::RedisServer::start();
    /// # let mut con = server.connection();
    /// use redis_script::recipes::sharded_list::{End, ShardedList};
    ///
    /// let events = ShardedList::new("events", 8);
    /// events.push(&mut con, End::Right, &["opened", "closed"])?;
    /// let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    /// let first: Option<String> = runtime.block_on(async {
    ///     let mut con = server.client().get_multiplexed_async_connection().await?;
    ///     Ok::<_, Box<dyn std::error::Error>>(events.pop_call(End::Left).invoke_async(&mut con).await?)
    /// })?;
    /// assert_eq!(first.as_deref(), Some("opened"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pop_call<T: FromRedisValue>(&self, end: End) -> Invocation<Option<T>> {
        sharded_list_pop_script(
            &self.first_key,
            &self.last_key,
            &self.shard_prefix,
            end,
            DUMMY,
        )
    }

    /// Pops the item at `end`, waiting up to `timeout` for one to arrive;
    /// `None` once the timeout has passed on an empty list.
    ///
    /// Loops as the [module docs](self#blocking-pops) describe; each wait is
    /// a BLPOP/BRPOP of at most one second, so the call returns within about
    /// `timeout` (plus a few round trips). `Duration::ZERO` tries once without
    /// waiting; there is no "wait forever", pass a long timeout instead. The
    /// connection's read timeout, if any, must exceed one second. As with
    /// [`pop`](Self::pop), an item that does not convert to `T` is removed
    /// and reported as an `Err`.
    pub fn blocking_pop<T: FromRedisValue>(
        &self,
        con: &mut dyn ConnectionLike,
        end: End,
        timeout: Duration,
    ) -> Result<Option<T>, Error> {
        let deadline = Deadline::after(timeout);
        loop {
            if let Some(item) = self.pop(con, end)? {
                return Ok(Some(item));
            }
            let Some(remaining) = deadline.remaining(MAX_WAIT) else {
                return Ok(None);
            };
            let wait = remaining.clamp(MIN_WAIT, MAX_WAIT);
            if let Some(item) = self.wait_on_end_shard(con, end, wait)? {
                return T::from_redis_value(Value::BulkString(item))
                    .map(Some)
                    .map_err(|source| reply_error::<T>(BLOCKING_POP, source));
            }
        }
    }

    /// One wait of a blocking pop: reads the end shard's id, then guards and
    /// blocks on that shard in one round trip. Replies the item it popped,
    /// `None` when it timed out or popped a dummy.
    fn wait_on_end_shard(
        &self,
        con: &mut dyn ConnectionLike,
        end: End,
        wait: Duration,
    ) -> Result<Option<Vec<u8>>, Error> {
        let end_key = match end {
            End::Left => &self.first_key,
            End::Right => &self.last_key,
        };
        let mut get = redis::cmd("GET");
        get.arg(end_key);
        let shard: Option<String> = query("GET in ShardedList::blocking_pop", &get, con)?;
        let shard = shard.as_deref().unwrap_or("0");
        let guard = sharded_list_guard_script(
            &self.first_key,
            &self.last_key,
            &self.shard_prefix,
            end,
            shard,
            DUMMY,
        );
        let mut pipe = redis::pipe();
        // Errors stay in the replies, each reported by its own decoding rather
        // than merged into one pipeline error.
        pipe.ignore_errors();
        pipe.eval_script(&guard)?;
        pipe.cmd(end.blocking_pop_command())
            .arg(format!("{}{shard}", self.shard_prefix))
            .arg(format!("{:.3}", wait.as_secs_f64()));
        let mut replies: Vec<Value> = pipe
            .query(con)
            .map_err(|error| Error::operation(GUARD_AND_WAIT, ErrorKind::Redis(error)))?;
        let (Some(popped), Some(guarded), None) = (replies.pop(), replies.pop(), replies.pop())
        else {
            let problem = ParsingError::from("the pipeline did not reply twice");
            return Err(reply_error::<Vec<Value>>(GUARD_AND_WAIT, problem));
        };
        guard.decode(Ok(guarded))?;
        // BLPOP replies [shard key, item], or nil on timeout.
        let popped = popped
            .extract_error()
            .map_err(|error| Error::operation(GUARD_AND_WAIT, ErrorKind::Redis(error)))?;
        let popped: Option<(Vec<u8>, Vec<u8>)> = FromRedisValue::from_redis_value(popped)
            .map_err(|source| reply_error::<Option<(Vec<u8>, Vec<u8>)>>(GUARD_AND_WAIT, source))?;
        Ok(popped
            .map(|(_, item)| item)
            .filter(|item| item != DUMMY.as_bytes()))
    }
}

/// Encodes each item to its one Redis value, refusing the [`DUMMY`] and items
/// that encode to other than one value (the scripts count one per item).
fn encode_items<T: ToRedisArgs>(items: &[T]) -> Result<Vec<Vec<u8>>, Error> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let [value] = <[Vec<u8>; 1]>::try_from(item.to_redis_args()).map_err(|values| {
                refused(
                    PUSH,
                    "a sharded list item must encode to exactly one Redis value",
                    format!("item {index}: encoded to {} values", values.len()),
                )
            })?;
            if value == DUMMY.as_bytes() {
                return Err(refused(
                    PUSH,
                    "the sharded list's reserved dummy value cannot be pushed",
                    format!("item {index}: {DUMMY:?}"),
                ));
            }
            Ok(value)
        })
        .collect()
}
