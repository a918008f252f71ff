//! "Did you mean": the closest of some names to a misspelt one, for the
//! notes on unknown globals, members, locals and commands.

/// "Did you mean": the candidate closest to `name`, or `None` when none is
/// close. First a candidate equal to `name` ignoring ASCII case (`keys` ->
/// `KEYS`, `UNPACK` -> `unpack`), then the smallest optimal-string-alignment
/// distance (edits, adjacent swaps counting one; case ignored) within
/// `max(1, len / 3)`, `len` counted in characters of `name`. Ties go to the
/// earlier candidate. `None` if `name` itself is a candidate.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    suggestion(name, candidates).map(|found| found.name)
}

/// What [`suggestion`] found: the closest candidate, and whether it is the
/// only one that close.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Suggestion<'a> {
    /// The candidate [`suggest`] gives.
    pub(crate) name: &'a str,
    /// Whether no other candidate (by name) is as close: a fix may then
    /// replace the misspelt name with it; a tie is a guess.
    pub(crate) unique: bool,
}

/// [`suggest`], saying whether the suggestion is the only one that close.
pub(crate) fn suggestion<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<Suggestion<'a>> {
    let wanted: Vec<char> = name.chars().map(|c| c.to_ascii_lowercase()).collect();
    let limit = (wanted.len() / 3).max(1);
    let mut best: Option<(usize, Suggestion<'a>)> = None;
    for candidate in candidates {
        if candidate == name {
            return None;
        }
        // Equal but for case is distance 0, which nothing else beats.
        let distance = if candidate.eq_ignore_ascii_case(name) {
            0
        } else {
            let lower: Vec<char> = candidate.chars().map(|c| c.to_ascii_lowercase()).collect();
            // The distance is at least the difference in length: skipping what
            // cannot be close keeps a long name (a megabyte, in a generated
            // script) from costing its length times every candidate's.
            if wanted.len().abs_diff(lower.len()) > limit {
                continue;
            }
            osa_distance(&wanted, &lower)
        };
        if distance > limit {
            continue;
        }
        match &mut best {
            Some((closest, found)) if distance == *closest => {
                found.unique &= found.name == candidate;
            }
            Some((closest, _)) if distance > *closest => {}
            _ => {
                best = Some((
                    distance,
                    Suggestion {
                        name: candidate,
                        unique: true,
                    },
                ));
            }
        }
    }
    best.map(|(_, found)| found)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two adjacent characters, each costing one.
fn osa_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    // Three rows: two back (for swaps), one back, current.
    let mut rows = vec![0usize; width * 3];
    for (j, cell) in rows[..width].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (
            (i % 3) * width,
            ((i - 1) % 3) * width,
            ((i + 1) % 3) * width,
        );
        rows[cur] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev + j] + 1)
                .min(rows[cur + j - 1] + 1)
                .min(rows[prev + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2 + j - 2] + 1);
            }
            rows[cur + j] = d;
        }
    }
    rows[(a.len() % 3) * width + b.len()]
}

/// Whether respelling the name written `written` as `right` (a global, a
/// library's member, a command) is certain to be what the script means,
/// apart from the misspelling it repairs. Two rules, both needed:
///
/// - The two differ as a slip of the keyboard does: in letter case only,
///   or by one letter dropped, added or doubled, or by two adjacent
///   letters swapped (`tonumbr`, `redis.cal`, `string.fromat`, `INCRR`).
///   One letter changed into another may be another word (`rcall`, the
///   usual alias of `redis.call`, is not `pcall`): a suggestion only.
/// - The respelling does not change whether an error stops the script:
///   `pcall`, `xpcall` and a library's `pcall` catch errors, and a name
///   that does not begin as they do (`call`, `rcall`) may mean one that
///   lets them through, so a fix into them would turn a failing script
///   into one that quietly goes on.
pub(crate) fn certain_respelling(written: &str, right: &str) -> bool {
    is_slip(written, right) && catches_errors(right) == looks_like_catching(written)
}

/// The names that call a function and catch its errors.
fn catches_errors(name: &str) -> bool {
    matches!(name, "pcall" | "xpcall")
}

/// A written name that begins as an error-catching call does (`pc`,
/// `xpc`; not `XPENDIN`).
fn looks_like_catching(written: &str) -> bool {
    let lower = written.to_ascii_lowercase();
    lower.starts_with("pc") || lower.starts_with("xpc")
}

/// Whether `a` and `b` differ in case only, or by one character inserted,
/// deleted, or swapped with its neighbour: not by one replaced.
fn is_slip(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    if a == b {
        return true;
    }
    let (short, long) = if a.len() < b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if long.len() == short.len() + 1 {
        // One character more: the rest equal around it.
        let prefix = short
            .iter()
            .zip(long.iter())
            .take_while(|(x, y)| x == y)
            .count();
        return short[prefix..] == long[prefix + 1..];
    }
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    matches!(differ.as_slice(), [i, j] if *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i])
}

/// The note that offers `suggestion` (a name, as the script would write it).
pub fn did_you_mean(suggestion: &str) -> String {
    format!("did you mean `{suggestion}`?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_respelling_is_certain_only_for_a_slip_that_keeps_errors_as_they_were() {
        for (written, right) in [
            ("tonumbr", "tonumber"),
            ("cal", "call"),
            ("calll", "call"),
            ("fromat", "format"),
            ("INCRR", "incr"),
            ("keys", "KEYS"),
            ("pcal", "pcall"),
            ("xpcal", "xpcall"),
            // A name that begins as `xpcall` does, into one that is not.
            ("XPENDIN", "xpending"),
        ] {
            assert!(certain_respelling(written, right), "{written} -> {right}");
        }
        for (written, right) in [
            // One letter for another: another word.
            ("rcall", "pcall"),
            ("spop", "lpop"),
            ("tostrong", "tostring"),
            // Into a call that catches errors, from one that may not.
            ("call", "pcall"),
            ("pcall", "call"),
            // Two slips.
            ("tonmbr", "tonumber"),
        ] {
            assert!(!certain_respelling(written, right), "{written} -> {right}");
        }
    }

    #[test]
    fn osa() {
        let d = |a: &str, b: &str| {
            osa_distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("", ""), 0);
        assert_eq!(d("abc", ""), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("calll", "call"), 1);
        assert_eq!(d("fromat", "format"), 1);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("ca", "abc"), 3); // OSA, not full Damerau (which gives 2)
    }

    #[test]
    fn a_suggestion_is_unique_when_nothing_else_is_as_close() {
        fn unique(name: &str, candidates: &[&'static str]) -> Option<(&'static str, bool)> {
            suggestion(name, candidates.iter().copied()).map(|found| (found.name, found.unique))
        }
        assert_eq!(
            unique("tonumbr", &["tonumber", "tostring"]),
            Some(("tonumber", true))
        );
        // `bat` is one edit from both: the first is suggested, as a guess.
        assert_eq!(unique("bat", &["bar", "baz"]), Some(("bar", false)));
        // A closer candidate after a tie wins alone.
        assert_eq!(
            unique("bart", &["bar", "baz", "bart2", "Bart"]),
            Some(("Bart", true))
        );
        // The same name twice is no tie.
        assert_eq!(unique("cuont", &["count", "count"]), Some(("count", true)));
        assert_eq!(unique("count", &["count"]), None);
        assert_eq!(unique("xyzzy", &["count"]), None);
    }
}
