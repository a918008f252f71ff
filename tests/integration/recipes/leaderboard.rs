//! Capped leaderboard: random submissions against a model of the rules, and
//! concurrent submissions ending with the true top N.

use std::collections::BTreeMap;
use std::thread;

use redis::Connection;
use redis_script::recipes::leaderboard::{Leaderboard, Submitted};

use crate::server::RedisServer;

const KEY: &str = "board";

/// xorshift64*: a small seeded generator, so a failure replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The rules of the module docs, on a map.
#[derive(Default)]
struct Model {
    scores: BTreeMap<String, f64>,
}

impl Model {
    /// Members in Redis's order: by score, then by name.
    fn ascending(&self) -> Vec<(String, f64)> {
        let mut members: Vec<(String, f64)> =
            self.scores.iter().map(|(m, s)| (m.clone(), *s)).collect();
        members.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        members
    }

    fn lowest(&self) -> Option<(String, f64)> {
        self.ascending().into_iter().next()
    }

    /// `None` where the script must refuse the submission.
    fn submit(&mut self, board: &Leaderboard, member: &str, score: f64) -> Option<Submitted> {
        if !(0.0..=board.ceiling()).contains(&score) {
            return None;
        }
        while self.scores.len() > board.capacity() {
            let (lowest, _) = self.lowest().expect("more members than capacity");
            self.scores.remove(&lowest);
        }
        if let Some(old) = self.scores.get_mut(member) {
            *old = score;
            return Some(Submitted::Updated);
        }
        if self.scores.len() < board.capacity() {
            self.scores.insert(member.to_owned(), score);
            return Some(Submitted::Added { evicted: None });
        }
        match self.lowest() {
            Some((lowest, lowest_score)) if score > lowest_score => {
                self.scores.remove(&lowest);
                self.scores.insert(member.to_owned(), score);
                Some(Submitted::Added {
                    evicted: Some(lowest),
                })
            }
            _ => Some(Submitted::Rejected),
        }
    }
}

fn ascending(con: &mut Connection) -> Vec<(String, f64)> {
    redis::cmd("ZRANGE")
        .arg(KEY)
        .arg(0)
        .arg(-1)
        .arg("WITHSCORES")
        .query(con)
        .unwrap()
}

#[test]
fn random_submissions_match_the_model_after_every_call() {
    const STEPS: usize = 3000;
    const CEILING: f64 = 10.0;
    let server = RedisServer::start();
    let mut con = server.connection();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut model = Model::default();
    let (mut added, mut evicted, mut updated, mut rejected, mut refused) = (0, 0, 0, 0, 0);

    for step in 0..STEPS {
        // Mostly 8; sometimes a smaller or zero capacity, which trims the set.
        let capacity = match rng.below(40) {
            0 => 0,
            1..=3 => 5,
            _ => 8,
        };
        let board = Leaderboard::new(KEY, capacity, CEILING);
        let member = format!("m{:02}", rng.below(30));
        // Quarter points from -1 to 12: ties, fractions, and out of range.
        let score = (rng.below(53) as f64 - 4.0) / 4.0;

        let expected = model.submit(&board, &member, score);
        let got = board.submit(&mut con, &member, score);
        match (&expected, got) {
            (Some(expected), Ok(got)) => assert_eq!(&got, expected, "step {step}"),
            (None, Err(error)) => {
                assert!(error.to_string().contains("between 0 and"), "{error}")
            }
            (expected, got) => panic!("step {step}: expected {expected:?}, got {got:?}"),
        }
        assert_eq!(ascending(&mut con), model.ascending(), "step {step}");

        match expected {
            Some(Submitted::Added { evicted: None }) => added += 1,
            Some(Submitted::Added { evicted: Some(_) }) => evicted += 1,
            Some(Submitted::Updated) => updated += 1,
            Some(Submitted::Rejected) => rejected += 1,
            None => refused += 1,
        }
    }
    // Every rule was exercised, so the comparison above covered it.
    let counts = [added, evicted, updated, rejected, refused];
    assert!(counts.iter().all(|&n| n > 20), "{counts:?}");
}

#[test]
fn invalid_scores_and_settings_are_refused_without_change() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let board = Leaderboard::new(KEY, 3, 5.0);
    board.submit(&mut con, "ada", 5.0).unwrap();
    let before = ascending(&mut con);
    for score in [f64::NAN, -0.5, 5.000001, f64::INFINITY] {
        assert!(board.submit(&mut con, "bob", score).is_err(), "{score}");
    }
    for bad in [
        Leaderboard::new(KEY, 3, f64::NAN),
        Leaderboard::new(KEY, 3, -1.0),
    ] {
        assert!(bad.submit(&mut con, "bob", 0.0).is_err());
    }
    assert_eq!(ascending(&mut con), before);

    // No ceiling, and an exact double survives the trip.
    let open = Leaderboard::new(KEY, 3, f64::INFINITY);
    open.submit(&mut con, "big", 1e300).unwrap();
    open.submit(&mut con, "tenth", 0.1).unwrap();
    assert_eq!(
        open.top(&mut con).unwrap(),
        [
            ("big".into(), 1e300),
            ("ada".into(), 5.0),
            ("tenth".into(), 0.1)
        ]
    );
}

#[test]
fn a_failed_plain_command_names_itself_in_the_recipe_error() {
    let server = RedisServer::start();
    let mut con = server.connection();
    redis::cmd("SET")
        .arg(KEY)
        .arg("not a sorted set")
        .exec(&mut con)
        .unwrap();
    let board = Leaderboard::new(KEY, 3, 10.0);
    let error = board.top(&mut con).unwrap_err();
    assert_eq!(error.script(), "ZRANGE in Leaderboard::top");
    assert_eq!(error.code(), Some("WRONGTYPE"), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("ZRANGE in Leaderboard::top: "),
        "{error}"
    );
    // A script's error still names the binding and its file.
    let error = board.submit(&mut con, "ada", 1.0).unwrap_err();
    assert_eq!(error.script(), "submit_script");
    assert_eq!(error.file(), "scripts/leaderboard_update.lua");
}

#[test]
fn concurrent_new_members_end_as_the_true_top_n() {
    const THREADS: usize = 8;
    const PER_THREAD: usize = 60;
    const CAPACITY: usize = 10;
    let server = RedisServer::start();
    let total = THREADS * PER_THREAD;
    // Distinct scores, spread over the threads in a scrambled order.
    let score_of = |n: usize| ((n * 7919) % total) as f64;

    thread::scope(|scope| {
        for t in 0..THREADS {
            let mut con = server.connection();
            scope.spawn(move || {
                let board = Leaderboard::new(KEY, CAPACITY, total as f64);
                for i in 0..PER_THREAD {
                    let n = t * PER_THREAD + i;
                    board
                        .submit(&mut con, &format!("p{n}"), score_of(n))
                        .unwrap();
                }
            });
        }
    });

    let mut all: Vec<(String, f64)> = (0..total).map(|n| (format!("p{n}"), score_of(n))).collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    all.truncate(CAPACITY);
    let board = Leaderboard::new(KEY, CAPACITY, total as f64);
    assert_eq!(board.top(&mut server.connection()).unwrap(), all);
}
