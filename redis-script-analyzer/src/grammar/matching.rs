//! A call's words matched against a command's grammar ([`judge`]).
//!
//! The matcher reads the grammar as the servers parse it, and leniently
//! wherever they are lenient, so that a refusal it reports is a refusal on
//! every run:
//! - a word the text does not settle ([`Word::Any`]) may be any word;
//! - arguments that start with a token (`NX`, `EX seconds`, `LIMIT offset
//!   count`) may come in any order among their neighbours of that sort,
//!   and again, as the servers look them up by their token wherever they
//!   stand; a required one must still come once;
//! - two choices of one `oneof` (`NX` and `XX`) on one reading of the call
//!   refuse it where the server refused that pair together when its
//!   specifications were stored (it takes EXPIRE's `XX` with `GT`, SORT's
//!   `ASC` with `DESC`);
//! - a value's kind is checked only where no server's parser could take
//!   the text ([`accepts`]).
//!
//! It follows every reading of the call at once (the set of positions
//! each step can reach), so a word that could be a value or an option is
//! both until a later word settles it. A call whose readings grow past a
//! bound is left undecided.

use std::collections::HashSet;

use super::arg::{Arg, Kind};

/// What the text settles about one word of a call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Word<'w> {
    /// Not settled (an ARGV element, a reply, text built at run time).
    Any,
    /// One of these literals.
    Literals(Vec<Literal<'w>>),
}

/// A literal word.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Literal<'w> {
    Text(&'w [u8]),
    /// A Lua number, which the server receives as its text.
    Number(f64),
}

/// What the grammar expected where a call went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expected {
    /// This word (`MATCH`).
    Token(&'static str),
    /// A value of this argument.
    Value(&'static Arg),
    /// Nothing more.
    End,
}

/// Why a call is refused: the furthest word any reading reached.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    /// The index of the word no reading gets past, or the number of words
    /// when the call ends too early.
    pub(crate) at: usize,
    /// What the readings that got that far expected there.
    pub(crate) expected: Vec<Expected>,
    /// Two choices of one `oneof` that the word there would combine.
    pub(crate) conflict: Option<Conflict>,
}

/// Two choices of one `oneof` on one reading of a call (`SET k v NX XX`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Conflict {
    /// The `oneof`.
    pub(crate) group: &'static Arg,
    /// The choice given first.
    pub(crate) before: &'static Arg,
    /// The choice the word gives.
    pub(crate) now: &'static Arg,
}

/// The grammar's verdict on a call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Some reading matches.
    Accepted,
    /// No reading does.
    Refused(Refusal),
    /// Too many readings to follow.
    Undecided,
}

/// The most states one run of options may take before the call is left
/// undecided.
const MAX_STATES: usize = 4096;

/// Matches `words` (a call's arguments after its name, or after a
/// subcommand's name) against `args`.
pub(crate) fn judge(args: &'static [Arg], words: &[Word<'_>]) -> Verdict {
    let mut matcher = Matcher::new(words);
    if words.len() >= MAX_WORDS {
        return Verdict::Undecided;
    }
    let start = Positions::from([0]);
    let ends = matcher.sequence(args, &start);
    if matcher.gave_up {
        return Verdict::Undecided;
    }
    if ends.contains(&words.len()) {
        return Verdict::Accepted;
    }
    for end in ends {
        matcher.fail(end, Expected::End);
    }
    Verdict::Refused(Refusal {
        at: matcher.furthest,
        expected: matcher.expected,
        conflict: matcher.conflict,
    })
}

/// What may come after `words` (the arguments typed so far): every
/// token and value some reading expects next; `None` when no reading gets
/// that far (or too many readings to follow).
pub(crate) fn expected_next(args: &'static [Arg], words: &[Word<'_>]) -> Option<Vec<Expected>> {
    let mut matcher = Matcher::new(words);
    if words.len() >= MAX_WORDS {
        return None;
    }
    let ends = matcher.sequence(args, &Positions::from([0]));
    if matcher.gave_up {
        return None;
    }
    if ends.contains(&words.len()) {
        matcher.fail(words.len(), Expected::End);
    }
    (matcher.furthest == words.len()).then_some(matcher.expected)
}

/// The positions some reading reaches, one bit each: a call's words are
/// fewer than [`MAX_WORDS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Positions(u128);

/// The most words a call may have to be judged.
const MAX_WORDS: usize = 127;

impl Positions {
    fn new() -> Positions {
        Positions(0)
    }

    fn from<const N: usize>(positions: [usize; N]) -> Positions {
        let mut set = Positions::new();
        for position in positions {
            set.insert(position);
        }
        set
    }

    fn insert(&mut self, position: usize) {
        if position <= MAX_WORDS {
            self.0 |= 1 << position;
        }
    }

    fn contains(&self, position: &usize) -> bool {
        *position <= MAX_WORDS && self.0 & (1 << position) != 0
    }

    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    fn union(&mut self, other: Positions) {
        self.0 |= other.0;
    }

    fn without(self, other: Positions) -> Positions {
        Positions(self.0 & !other.0)
    }
}

impl IntoIterator for Positions {
    type Item = usize;
    type IntoIter = Bits;

    fn into_iter(self) -> Bits {
        Bits(self.0)
    }
}

/// The positions of a [`Positions`], lowest first.
struct Bits(u128);

impl Iterator for Bits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let position = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(position)
    }
}

struct Matcher<'m, 'w> {
    words: &'m [Word<'w>],
    furthest: usize,
    expected: Vec<Expected>,
    conflict: Option<Conflict>,
    gave_up: bool,
}

/// One reading inside a run of options: where it stands, which options it
/// has used (by index in the run), and the choices it made of each `oneof`
/// whose choices may exclude each other (bits of their indexes).
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    at: usize,
    used: u64,
    choices: Vec<(usize, u32)>,
}

impl<'m, 'w> Matcher<'m, 'w> {
    fn new(words: &'m [Word<'w>]) -> Matcher<'m, 'w> {
        Matcher {
            words,
            furthest: 0,
            expected: Vec::new(),
            conflict: None,
            gave_up: false,
        }
    }

    /// Remembers what a reading expected at `at`, if no reading got further.
    fn fail(&mut self, at: usize, expected: Expected) {
        if at > self.furthest {
            self.furthest = at;
            self.expected.clear();
            self.conflict = None;
        }
        if at == self.furthest && !self.expected.contains(&expected) {
            self.expected.push(expected);
        }
    }

    /// `args` in order, a run of token-led ones in any order.
    fn sequence(&mut self, args: &'static [Arg], from: &Positions) -> Positions {
        let mut at = *from;
        let mut index = 0;
        while index < args.len() && !at.is_empty() {
            let run = args[index..]
                .iter()
                .take_while(|arg| arg.token_led())
                .count();
            if let Some(next) = args
                .get(index + 1)
                .filter(|next| counts(&args[index], next))
            {
                at = self.counted(&args[index], next, &at);
                index += 2;
            } else if run > 0 {
                at = self.any_order(&args[index..index + run], &at);
                index += run;
            } else {
                at = self.argument(&args[index], &at);
                index += 1;
            }
        }
        at
    }

    /// One argument where it stands: left out if optional, repeated if
    /// multiple.
    fn argument(&mut self, arg: &'static Arg, from: &Positions) -> Positions {
        let mut reached = self.repeated(arg, from);
        if arg.optional() {
            reached.union(*from);
        }
        reached
    }

    /// One argument given at least once.
    fn repeated(&mut self, arg: &'static Arg, from: &Positions) -> Positions {
        let mut reached = self.once(arg, from, true);
        if arg.multiple() {
            let mut frontier = reached;
            while !frontier.is_empty() {
                let next = self
                    .once(arg, &frontier, arg.multiple_token())
                    .without(reached);
                reached.union(next);
                frontier = next;
            }
        }
        reached
    }

    /// One occurrence of `arg`, its token first when `with_token`.
    fn once(&mut self, arg: &'static Arg, from: &Positions, with_token: bool) -> Positions {
        let after = if with_token && !arg.token.is_empty() {
            self.token(arg.token, from)
        } else {
            *from
        };
        match arg.kind {
            Kind::Token => after,
            Kind::OneOf => {
                let mut reached = Positions::new();
                for choice in arg.args {
                    reached.union(self.argument(choice, &after));
                }
                reached
            }
            Kind::Block => self.sequence(arg.args, &after),
            kind => {
                let mut reached = Positions::new();
                for at in after {
                    match self.words.get(at) {
                        Some(word) if accepts(kind, word) => {
                            reached.insert(at + 1);
                        }
                        _ => self.fail(at, Expected::Value(arg)),
                    }
                }
                reached
            }
        }
    }

    fn token(&mut self, token: &'static str, from: &Positions) -> Positions {
        let mut reached = Positions::new();
        for at in *from {
            match self.words.get(at) {
                Some(word) if is_token(word, token) => {
                    reached.insert(at + 1);
                }
                _ => self.fail(at, Expected::Token(token)),
            }
        }
        reached
    }

    /// A run of token-led arguments, in any order and again; each
    /// required one at least once, and one choice of each `oneof`.
    fn any_order(&mut self, members: &'static [Arg], from: &Positions) -> Positions {
        if members.len() > 64 {
            self.gave_up = true;
            return Positions::new();
        }
        let required: u64 = members
            .iter()
            .enumerate()
            .filter(|(_, arg)| !arg.optional())
            .fold(0, |mask, (index, _)| mask | 1 << index);
        let mut seen: HashSet<State> = HashSet::new();
        let mut queue: Vec<State> = from
            .into_iter()
            .map(|at| State {
                at,
                used: 0,
                choices: Vec::new(),
            })
            .collect();
        let mut ends = Positions::new();
        while let Some(state) = queue.pop() {
            if !seen.insert(state.clone()) {
                continue;
            }
            if seen.len() > MAX_STATES {
                self.gave_up = true;
                return Positions::new();
            }
            if state.used & required == required {
                ends.insert(state.at);
            }
            let here = Positions::from([state.at]);
            for (index, member) in members.iter().enumerate() {
                let used = state.used | 1 << index;
                // A `oneof` the server does not refuse two choices of
                // (SORT's `ASC` and `DESC`; BITFIELD's repeated operations)
                // takes any choice each time.
                let exclusive = member.args.iter().any(|choice| choice.excludes != 0);
                if member.kind != Kind::OneOf || member.multiple() || !exclusive {
                    for at in self.repeated(member, &here) {
                        if at > state.at {
                            queue.push(State {
                                at,
                                used,
                                choices: state.choices.clone(),
                            });
                        }
                    }
                    continue;
                }
                let after = if member.token.is_empty() {
                    here
                } else {
                    self.token(member.token, &here)
                };
                // The choices of this group made so far (bits).
                let made = state
                    .choices
                    .iter()
                    .find(|(of, _)| *of == index)
                    .map_or(0, |(_, made)| *made);
                for (choice, arg) in member.args.iter().enumerate() {
                    let refused = arg.excludes & made;
                    // A choice the server refuses with one made is never
                    // expected: where it would match, it conflicts.
                    let kept = (refused != 0).then(|| self.remember());
                    let reached = self.argument(arg, &after);
                    if let Some(kept) = kept {
                        self.restore(kept);
                    }
                    let progress: Vec<usize> =
                        reached.into_iter().filter(|&at| at > state.at).collect();
                    if progress.is_empty() {
                        continue;
                    }
                    if refused != 0 {
                        let before = refused.trailing_zeros() as usize;
                        self.refuse_conflict(
                            state.at,
                            Conflict {
                                group: member,
                                before: &member.args[before],
                                now: arg,
                            },
                        );
                        continue;
                    }
                    let mut choices: Vec<(usize, u32)> = state
                        .choices
                        .iter()
                        .filter(|(of, _)| *of != index)
                        .copied()
                        .collect();
                    choices.push((index, made | 1 << choice));
                    for at in progress {
                        queue.push(State {
                            at,
                            used,
                            choices: choices.clone(),
                        });
                    }
                }
            }
        }
        ends
    }

    /// What the readings so far expected, to be put back after a probe.
    fn remember(&self) -> (usize, Vec<Expected>, Option<Conflict>) {
        (self.furthest, self.expected.clone(), self.conflict)
    }

    fn restore(
        &mut self,
        (furthest, expected, conflict): (usize, Vec<Expected>, Option<Conflict>),
    ) {
        self.furthest = furthest;
        self.expected = expected;
        self.conflict = conflict;
    }

    fn refuse_conflict(&mut self, at: usize, conflict: Conflict) {
        if at > self.furthest {
            self.furthest = at;
            self.expected.clear();
        }
        if at == self.furthest {
            self.conflict = Some(conflict);
        }
    }

    /// A count (`numkeys`) and the argument it counts (`key [key ...]`):
    /// exactly that many when the count is settled.
    fn counted(
        &mut self,
        count: &'static Arg,
        counted: &'static Arg,
        from: &Positions,
    ) -> Positions {
        let mut reached = Positions::new();
        // The count's own token first (`BYPOLYGON num-vertices ...`).
        let after_token = if count.token.is_empty() {
            *from
        } else {
            self.token(count.token, from)
        };
        for at in after_token {
            let Some(word) = self.words.get(at) else {
                self.fail(at, Expected::Value(count));
                continue;
            };
            if !accepts(count.kind, word) {
                self.fail(at, Expected::Value(count));
                continue;
            }
            let after = Positions::from([at + 1]);
            match settled_count(word) {
                Some(times) => {
                    let mut here = after;
                    for time in 0..times {
                        here = self.once(counted, &here, time == 0 || counted.multiple_token());
                    }
                    reached.union(here);
                }
                None => reached.union(self.argument(counted, &after)),
            }
        }
        reached
    }
}

/// Whether `count` says how many times `next` comes: an integer named
/// for a number of things (`numkeys`, `numfields`) before a repeated
/// argument, as the servers read it.
fn counts(count: &Arg, next: &Arg) -> bool {
    count.kind == Kind::Integer && count.name.starts_with("num") && next.multiple()
}

/// A count the text settles, when it is one the servers take (at least 1,
/// and few enough to follow).
fn settled_count(word: &Word<'_>) -> Option<usize> {
    let Word::Literals(literals) = word else {
        return None;
    };
    let [literal] = literals.as_slice() else {
        return None;
    };
    let count = match literal {
        Literal::Number(number) if number.fract() == 0.0 => *number,
        Literal::Number(_) => return None,
        Literal::Text(text) => std::str::from_utf8(text).ok()?.parse::<f64>().ok()?,
    };
    ((1.0..=64.0).contains(&count) && count.fract() == 0.0).then_some(count as usize)
}

/// Whether `word` may be `token` (the servers compare ignoring case).
fn is_token(word: &Word<'_>, token: &str) -> bool {
    match word {
        Word::Any => true,
        Word::Literals(literals) => literals.iter().any(|literal| match literal {
            Literal::Text(text) => text.eq_ignore_ascii_case(token.as_bytes()),
            Literal::Number(_) => false,
        }),
    }
}

/// Whether some server may take `word` as a value of `kind`: only text
/// that no parser of that kind reads is refused.
pub(crate) fn accepts(kind: Kind, word: &Word<'_>) -> bool {
    let Word::Literals(literals) = word else {
        return true;
    };
    literals.iter().any(|literal| match (kind, literal) {
        (Kind::Integer | Kind::UnixTime, Literal::Number(number)) => {
            !number.is_finite() || number.fract() == 0.0
        }
        (Kind::Integer | Kind::UnixTime, Literal::Text(text)) => integer_text(text),
        (Kind::Double, Literal::Text(text)) => double_text(text),
        _ => true,
    })
}

/// Digits, after blanks and a sign (and BITFIELD's `#` of an offset in
/// units of its type).
fn integer_text(text: &[u8]) -> bool {
    let text = text.trim_ascii();
    let text = text
        .strip_prefix(b"+")
        .or_else(|| text.strip_prefix(b"-"))
        .unwrap_or(text);
    let digits = text.strip_prefix(b"#").unwrap_or(text);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// A number as `strtod` reads it (`1.5`, `-inf`, `1e3`, `0x1p3`), after
/// blanks and the `(` of an exclusive score bound.
fn double_text(text: &[u8]) -> bool {
    let text = text.trim_ascii();
    let text = text.strip_prefix(b"(").unwrap_or(text).trim_ascii();
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let unsigned = text.trim_start_matches(['+', '-']);
    text.parse::<f64>().is_ok()
        || unsigned.starts_with("0x")
        || unsigned.starts_with("0X")
        || ["inf", "infinity", "nan"]
            .iter()
            .any(|word| unsigned.eq_ignore_ascii_case(word))
}
