//! Sharded list: every item pushed is popped exactly once under concurrent
//! producers and consumers, no dummy is ever delivered or left behind, blocking
//! pops time out cleanly, and single-client order matches a plain deque.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use redis::{Connection, ConnectionLike};
use redis_script::recipes::sharded_list::{DUMMY, End, ShardedList, sharded_list_guard_script};

use crate::server::RedisServer;

/// The shards of list `name` that exist, with their items, by shard id.
fn shards(con: &mut dyn ConnectionLike, name: &str) -> Vec<(i64, Vec<String>)> {
    // Every key of the list starts with its hash tag; braces are not special
    // in KEYS patterns.
    let prefix = format!("{{{name}}}:");
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query(con)
        .unwrap();
    let mut shards: Vec<(i64, Vec<String>)> = keys
        .iter()
        .filter(|key| !key.ends_with(":first") && !key.ends_with(":last"))
        .map(|key| {
            let id = key[prefix.len()..]
                .parse()
                .unwrap_or_else(|_| panic!("unexpected key {key} under the list's name"));
            let items = redis::cmd("LRANGE")
                .arg(key)
                .arg(0)
                .arg(-1)
                .query(con)
                .unwrap();
            (id, items)
        })
        .collect();
    shards.sort();
    shards
}

/// The list's items left to right, read straight from the shards.
fn items(con: &mut dyn ConnectionLike, name: &str) -> Vec<String> {
    shards(con, name)
        .into_iter()
        .flat_map(|(_, items)| items)
        .collect()
}

fn assert_empty(con: &mut dyn ConnectionLike, list: &ShardedList, name: &str) {
    assert_eq!(list.pop::<String>(con, End::Left).unwrap(), None);
    assert_eq!(shards(con, name), [], "an empty list leaves no shard keys");
}

const TOTAL: usize = 200_000;
const PRODUCERS: usize = 4;
const CONSUMERS: usize = 4;
/// Items per push call, in turn; 70 is cut into two script calls.
const BATCHES: [usize; 6] = [1, 3, 8, 2, 70, 16];
/// Producers wait while the list holds this many items, so that it is often
/// empty and consumers block, guard and race on the end shards.
const BACKLOG: usize = 1;

/// What the threads of the concurrent test share.
struct Run {
    pushed: AtomicUsize,
    popped: AtomicUsize,
    failed: AtomicBool,
    deadline: Instant,
}

impl Run {
    /// `Err` once the deadline has passed or another thread failed, so every
    /// thread stops soon after the first failure.
    fn check(&self, who: &str) -> Result<(), String> {
        if self.failed.load(Ordering::SeqCst) {
            return Err(format!("{who}: stopped, another thread failed"));
        }
        if Instant::now() > self.deadline {
            return Err(format!(
                "{who}: the deadline passed with {} of {TOTAL} items popped",
                self.popped.load(Ordering::SeqCst)
            ));
        }
        Ok(())
    }

    /// Runs one thread's work, flagging its failure to the others.
    fn thread<F>(self: &Arc<Self>, work: F) -> thread::JoinHandle<Result<Vec<String>, String>>
    where
        F: FnOnce(&Run) -> Result<Vec<String>, String> + Send + 'static,
    {
        let run = self.clone();
        thread::spawn(move || {
            let result = work(&run);
            if result.is_err() {
                run.failed.store(true, Ordering::SeqCst);
            }
            result
        })
    }
}

/// Pushes `TOTAL / PRODUCERS` distinct items in batches, alternating ends.
fn produce(
    run: &Run,
    list: &ShardedList,
    mut con: Connection,
    producer: usize,
) -> Result<Vec<String>, String> {
    let who = format!("producer {producer}");
    let mut mine = Vec::with_capacity(TOTAL / PRODUCERS);
    for (batch, size) in BATCHES.iter().cycle().enumerate() {
        let size = (*size).min(TOTAL / PRODUCERS - mine.len());
        if size == 0 {
            return Ok(mine);
        }
        while run.pushed.load(Ordering::SeqCst) >= run.popped.load(Ordering::SeqCst) + BACKLOG {
            run.check(&who)?;
            thread::sleep(Duration::from_micros(200));
        }
        let items: Vec<String> = (mine.len()..mine.len() + size)
            .map(|seq| format!("p{producer}:{seq}"))
            .collect();
        let end = if batch % 2 == 0 {
            End::Left
        } else {
            End::Right
        };
        match list.push(&mut con, end, &items) {
            Ok(count) if count == size => {}
            other => return Err(format!("{who}: pushing {size} items replied {other:?}")),
        }
        run.pushed.fetch_add(size, Ordering::SeqCst);
        mine.extend(items);
    }
    unreachable!("the batches cycle until all items are pushed")
}

/// Pops with all four kinds in turn until `TOTAL` items are popped in all.
fn consume(
    run: &Run,
    list: &ShardedList,
    mut con: Connection,
    consumer: usize,
) -> Result<Vec<String>, String> {
    let who = format!("consumer {consumer}");
    let wait = Duration::from_millis(50);
    let mut got = Vec::new();
    // Each consumer starts at another kind, so all four run at once.
    for kind in consumer.. {
        if run.popped.load(Ordering::SeqCst) >= TOTAL {
            return Ok(got);
        }
        run.check(&who)?;
        let popped: Result<Option<String>, redis_script::Error> = match kind % 4 {
            0 => list.pop(&mut con, End::Left),
            1 => list.pop(&mut con, End::Right),
            2 => list.blocking_pop(&mut con, End::Left, wait),
            _ => list.blocking_pop(&mut con, End::Right, wait),
        };
        match popped {
            Ok(Some(item)) if item == DUMMY => {
                return Err(format!("{who}: a pop delivered the dummy"));
            }
            Ok(Some(item)) => {
                got.push(item);
                run.popped.fetch_add(1, Ordering::SeqCst);
            }
            Ok(None) => {}
            Err(error) => return Err(format!("{who}: {error}")),
        }
    }
    unreachable!("the loop returns once all items are popped or the run failed")
}

/// The server's count of calls of `command` so far.
fn calls(con: &mut Connection, command: &str) -> u64 {
    let stats: String = redis::cmd("INFO").arg("commandstats").query(con).unwrap();
    let prefix = format!("cmdstat_{command}:calls=");
    stats
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|rest| rest.split(',').next())
        .map_or(0, |calls| calls.parse().unwrap())
}

#[test]
fn producers_and_consumers_move_every_item_exactly_once() {
    let server = RedisServer::start();
    let name = "jobs";
    let list = ShardedList::new(name, 8);
    let run = Arc::new(Run {
        pushed: AtomicUsize::new(0),
        popped: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        deadline: Instant::now() + Duration::from_secs(120),
    });
    let started = Instant::now();
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|producer| {
            let (list, con) = (list.clone(), server.connection());
            run.thread(move |run| produce(run, &list, con, producer))
        })
        .collect();
    let consumers: Vec<_> = (0..CONSUMERS)
        .map(|consumer| {
            let (list, con) = (list.clone(), server.connection());
            run.thread(move |run| consume(run, &list, con, consumer))
        })
        .collect();
    let (mut pushed, mut got, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for (handles, items) in [(producers, &mut pushed), (consumers, &mut got)] {
        for handle in handles {
            match handle.join().unwrap() {
                Ok(mine) => items.extend(mine),
                Err(message) => failures.push(message),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "sharded list: {TOTAL} items, {PRODUCERS} producers, {CONSUMERS} consumers: {:?}",
        started.elapsed()
    );

    pushed.sort_unstable();
    got.sort_unstable();
    assert_eq!(pushed.len(), TOTAL);
    if got != pushed {
        let twice = got.windows(2).filter(|pair| pair[0] == pair[1]).count();
        let never = pushed
            .iter()
            .filter(|item| got.binary_search(item).is_err())
            .count();
        panic!(
            "popped {} items: {twice} popped twice, {never} pushed but never popped",
            got.len()
        );
    }

    let mut con = server.connection();
    // The run must have exercised the blocking path, not only plain pops.
    assert!(calls(&mut con, "blpop") > 0 && calls(&mut con, "brpop") > 0);
    // Only dummies may remain (a BLPOP took an item instead of its guard's
    // dummy); the next pop removes them all.
    let left = items(&mut con, name);
    assert!(
        left.iter().all(|item| item == DUMMY),
        "items left: {left:?}"
    );
    assert_empty(&mut con, &list, name);
}

#[test]
fn blocking_pops_on_an_empty_list_time_out_with_none() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("empty", 4);
    let wait = Duration::from_millis(200);

    assert_eq!(
        list.blocking_pop::<String>(&mut con, End::Left, wait)
            .unwrap(),
        None
    );
    assert_eq!(
        list.blocking_pop::<String>(&mut con, End::Right, wait)
            .unwrap(),
        None
    );
    assert_eq!(
        list.blocking_pop::<String>(&mut con, End::Left, Duration::ZERO)
            .unwrap(),
        None
    );

    // Emptied after use, with the ends away from shard 0.
    list.push(&mut con, End::Left, &(0..9).collect::<Vec<_>>())
        .unwrap();
    while list.pop::<i64>(&mut con, End::Right).unwrap().is_some() {}
    assert_eq!(
        list.blocking_pop::<i64>(&mut con, End::Right, wait)
            .unwrap(),
        None
    );
    assert_eq!(
        list.blocking_pop::<i64>(&mut con, End::Left, wait).unwrap(),
        None
    );
    assert_empty(&mut con, &list, "empty");
}

#[test]
fn a_blocked_pop_takes_an_item_pushed_by_another_client() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("wake", 2);
    // Move the ends off shard 0 first.
    list.push(&mut con, End::Right, &["x", "y", "z"]).unwrap();
    while list.pop::<String>(&mut con, End::Left).unwrap().is_some() {}

    for end in [End::Left, End::Right] {
        let (mut waiter_con, waiter_list) = (server.connection(), list.clone());
        let waiter = thread::spawn(move || {
            waiter_list.blocking_pop::<String>(&mut waiter_con, end, Duration::from_secs(30))
        });
        thread::sleep(Duration::from_millis(100));
        list.push(&mut con, end, &["wake up"]).unwrap();
        assert_eq!(waiter.join().unwrap().unwrap().as_deref(), Some("wake up"));
    }
    assert_empty(&mut con, &list, "wake");
}

#[test]
fn pushing_the_dummy_is_an_err_and_pushes_nothing() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("guarded", 4);

    // The dummy in the last chunk: refused before the first chunk is sent.
    let mut items: Vec<String> = (0..150).map(|n| n.to_string()).collect();
    items.push(DUMMY.to_owned());
    let refused = list.push(&mut con, End::Right, &items).unwrap_err();
    // The recipe's own check: named, with the item, in the one error type.
    assert_eq!(refused.script(), "ShardedList::push");
    assert_eq!(refused.file(), "");
    assert!(refused.to_string().contains("item 150"), "{refused}");
    assert!(list.push(&mut con, End::Left, &[DUMMY]).is_err());
    assert!(list.push(&mut con, End::Left, &[DUMMY.as_bytes()]).is_err());
    // An item must be one value: a pair would shift the count.
    assert!(list.push(&mut con, End::Right, &[("a", "b")]).is_err());
    assert_empty(&mut con, &list, "guarded");

    // The script refuses it too, for callers that bypass the Rust check.
    let error = list
        .push_chunk_call(End::Right, &["a", DUMMY])
        .invoke(&mut con)
        .unwrap_err();
    assert_eq!(error.code(), Some("DUMMY"));
    assert_empty(&mut con, &list, "guarded");
}

#[test]
fn rpush_then_lpop_is_fifo_across_shards() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("fifo", 3);

    // 150 items in one call: three chunks of at most 64.
    list.push(&mut con, End::Right, &(0..150).collect::<Vec<_>>())
        .unwrap();
    list.push(&mut con, End::Right, &[150, 151]).unwrap();
    let shard_sizes: Vec<usize> = shards(&mut con, "fifo")
        .iter()
        .map(|(_, items)| items.len())
        .collect();
    assert_eq!(shard_sizes.len(), 51);
    assert!(shard_sizes[..50].iter().all(|&size| size == 3));

    let popped: Vec<i64> = (0..152)
        .map(|_| list.pop(&mut con, End::Left).unwrap().unwrap())
        .collect();
    assert_eq!(popped, (0..152).collect::<Vec<_>>());
    assert_empty(&mut con, &list, "fifo");
}

#[test]
fn lpush_then_lpop_is_lifo_across_shards() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("lifo", 3);

    list.push(&mut con, End::Left, &(0..100).collect::<Vec<_>>())
        .unwrap();
    // As LPUSH does: the last item pushed is the head.
    assert_eq!(
        items(&mut con, "lifo"),
        (0..100).rev().map(|n| n.to_string()).collect::<Vec<_>>()
    );
    let popped: Vec<i64> = (0..100)
        .map(|_| list.pop(&mut con, End::Left).unwrap().unwrap())
        .collect();
    assert_eq!(popped, (0..100).rev().collect::<Vec<_>>());
    assert_empty(&mut con, &list, "lifo");
}

/// A small deterministic generator, so a failure replays.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

#[test]
fn both_ends_behave_like_a_deque_across_shard_boundaries() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("deque", 3);
    let mut model: VecDeque<u64> = VecDeque::new();
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut next = 0;

    for step in 0..2_000 {
        match random.below(4) {
            0 | 1 => {
                // Mostly a few items; sometimes up to 140, three chunks.
                let most = if random.below(10) == 0 { 140 } else { 7 };
                let count = 1 + random.below(most);
                let items: Vec<u64> = (next..next + count).collect();
                next += count;
                if random.below(2) == 0 {
                    list.push(&mut con, End::Left, &items).unwrap();
                    items.iter().for_each(|&item| model.push_front(item));
                } else {
                    list.push(&mut con, End::Right, &items).unwrap();
                    model.extend(&items);
                }
            }
            2 => assert_eq!(
                list.pop(&mut con, End::Left).unwrap(),
                model.pop_front(),
                "step {step}"
            ),
            _ => assert_eq!(
                list.pop(&mut con, End::Right).unwrap(),
                model.pop_back(),
                "step {step}"
            ),
        }
    }
    let expected: Vec<String> = model.iter().map(u64::to_string).collect();
    assert_eq!(items(&mut con, "deque"), expected);
    while let Some(expected) = model.pop_back() {
        assert_eq!(
            list.blocking_pop(&mut con, End::Right, Duration::ZERO)
                .unwrap(),
            Some(expected)
        );
    }
    assert_empty(&mut con, &list, "deque");
}

/// Pushes `value` straight into shard `id`, as a guard or another client would.
fn push_raw(con: &mut Connection, list: &ShardedList, command: &str, id: i64, value: &str) {
    redis::cmd(command)
        .arg(list.shard_key(id))
        .arg(value)
        .exec(con)
        .unwrap();
}

#[test]
fn pops_skip_and_remove_dummies_anywhere_in_the_list() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("dummies", 2);
    list.push(&mut con, End::Right, &["a", "b", "c", "d"])
        .unwrap(); // [a b] [c d]
    push_raw(&mut con, &list, "LPUSH", 0, DUMMY);
    push_raw(&mut con, &list, "RPUSH", 0, DUMMY);
    push_raw(&mut con, &list, "RPUSH", 1, DUMMY);
    push_raw(&mut con, &list, "LPUSH", 2, DUMMY); // beyond the end
    assert_eq!(items(&mut con, "dummies").len(), 8);

    assert_eq!(
        list.pop::<String>(&mut con, End::Left).unwrap().as_deref(),
        Some("a")
    );
    assert_eq!(
        list.pop::<String>(&mut con, End::Right).unwrap().as_deref(),
        Some("d")
    );
    assert_eq!(
        list.pop::<String>(&mut con, End::Right).unwrap().as_deref(),
        Some("c")
    );
    let wait = Duration::from_millis(100);
    assert_eq!(
        list.blocking_pop::<String>(&mut con, End::Right, wait)
            .unwrap()
            .as_deref(),
        Some("b")
    );
    assert_eq!(
        list.blocking_pop::<String>(&mut con, End::Left, wait)
            .unwrap(),
        None
    );
    // Shard 2, beyond the end, fills up once pushes reach it: its dummy is
    // then in the list, and skipped like the others.
    list.push(&mut con, End::Right, &["e", "f", "g", "h", "i"])
        .unwrap();
    assert_eq!(
        shards(&mut con, "dummies")[2],
        (2, vec![DUMMY.into(), "i".into()])
    );
    for expected in ["e", "f", "g", "h", "i"] {
        assert_eq!(
            list.blocking_pop::<String>(&mut con, End::Left, wait)
                .unwrap()
                .as_deref(),
            Some(expected)
        );
    }
    assert_empty(&mut con, &list, "dummies");
}

#[test]
fn the_guard_pushes_a_dummy_only_when_blocking_on_the_shard_would_be_wrong() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let list = ShardedList::new("guard", 2);
    let guard = |con: &mut Connection, end: End, shard: &str| -> bool {
        sharded_list_guard_script(
            list.first_key(),
            list.last_key(),
            "{guard}:",
            end,
            shard,
            DUMMY,
        )
        .invoke(con)
        .unwrap()
    };

    // Empty list: blocking on the end shard is right.
    assert!(!guard(&mut con, End::Left, "0"));
    assert!(!guard(&mut con, End::Right, "0"));
    assert_eq!(shards(&mut con, "guard"), []);

    list.push(&mut con, End::Right, &["a", "b", "c"]).unwrap(); // [a b] [c]: ends 0 and 1
    assert!(!guard(&mut con, End::Left, "0"));
    assert!(!guard(&mut con, End::Right, "1"));
    // A stale end: the client read the left end before it moved.
    assert!(guard(&mut con, End::Left, "-1"));
    assert!(guard(&mut con, End::Right, "0"));
    // An end emptied by a plain BRPOP, which does not move the end.
    redis::cmd("RPOP")
        .arg(list.shard_key(1))
        .exec(&mut con)
        .unwrap();
    assert!(guard(&mut con, End::Right, "1"));
    assert_eq!(
        shards(&mut con, "guard"),
        [
            (-1, vec![DUMMY.to_owned()]),
            (0, vec!["a".into(), "b".into(), DUMMY.into()]),
            (1, vec![DUMMY.to_owned()]),
        ]
    );

    // None of them is delivered, and pops clear the ones in range.
    assert_eq!(
        list.pop::<String>(&mut con, End::Right).unwrap().as_deref(),
        Some("b")
    );
    assert_eq!(
        list.pop::<String>(&mut con, End::Right).unwrap().as_deref(),
        Some("a")
    );
    assert_eq!(list.pop::<String>(&mut con, End::Right).unwrap(), None);
    // The stale shard -1 is outside the list: its waiter's BLPOP takes it.
    assert_eq!(shards(&mut con, "guard"), [(-1, vec![DUMMY.to_owned()])]);
}
