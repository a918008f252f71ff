//! Key prefixes: a namespace put before every KEYS value of a script call,
//! so that services and tenants can share one Redis.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

use redis::RedisWrite;

/// A namespace put before every KEYS value of a script call: with the
/// prefix `billing:`, a call with the key `invoice:7` runs on
/// `billing:invoice:7`. ARGV is never touched.
///
/// Apply it to one call with [`Invocation::key_prefix`](crate::Invocation::key_prefix),
/// or to every call made through a connection with
/// [`PrefixedConnection`](crate::PrefixedConnection); the recipes take one
/// with their `with_key_prefix` builders.
///
/// # Hash tags and slots
///
/// A Redis Cluster places a key by its hash tag: the bytes between the
/// key's *first* `{` and the first `}` after it, when there are any;
/// otherwise by the whole key. A prefix comes first, so any `{` in it
/// becomes the key's first `{`, and the prefix, not the key, would decide
/// the tag: `a{` before `{user:1}:cart` gives the tag `{user:1` (a new
/// slot), `{}` turns the user's tag off (the whole key is hashed), and
/// `{t}` moves every key to the slot of `t`. So [`KeyPrefix::new`] refuses
/// any `{`, and with it every prefixed key keeps its slot-deciding part:
/// keys whose tags shared a slot still do, and a call whose keys were in
/// one slot still is. (A `}` is harmless, as the tag's `}` is searched only
/// after its `{`.) A key with no tag is hashed whole, so its slot changes
/// with the prefix, as any key's name would.
///
/// One `{` is allowed by choice: [`KeyPrefix::tagged`] takes a prefix that
/// carries a whole tag of its own, such as `{tenant:7}:`, which then places
/// *every* key under it in that one slot, whatever tags the keys carry: a
/// tenant's keys all on one node, where any call of it is in one slot, at
/// the cost of spreading no load. Either kind refuses a prefix whose first
/// `{` opens no whole, non-empty tag inside the prefix.
///
/// Prefixes nest: a call prefixed with `a:` and run through a connection
/// prefixed with `b:` runs on `b:a:key` (two valid prefixes make a valid
/// one).
///
/// ```
/// use redis_script_runtime::KeyPrefix; // `redis_script::KeyPrefix` in the facade
///
/// let billing = KeyPrefix::new("billing:")?;
/// assert_eq!(billing.apply("{user:1}:cart"), "billing:{user:1}:cart");
/// assert!(KeyPrefix::new("tenant{7}:").is_err());
/// assert!(KeyPrefix::tagged("{tenant:7}:").is_ok());
/// # Ok::<(), redis_script_runtime::InvalidKeyPrefix>(())
/// ```
/// The empty prefix, which changes nothing, is its `Default`.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct KeyPrefix {
    // Shared: connection wrappers are cloned per task, recipes per value.
    text: Arc<str>,
}

impl KeyPrefix {
    /// A prefix without any `{`, which keeps every key's hash tag and so
    /// every call's keys in the slots they were in (see above). The empty
    /// prefix is allowed and changes nothing.
    pub fn new(prefix: impl Into<String>) -> Result<KeyPrefix, InvalidKeyPrefix> {
        let prefix = prefix.into();
        match prefix.find('{') {
            None => Ok(KeyPrefix::from_valid(prefix)),
            Some(_) => Err(InvalidKeyPrefix::new(prefix, Problem::HasBrace)),
        }
    }

    /// A prefix that carries its own hash tag, e.g. `{tenant:7}:`: its
    /// first `{` must be closed by a `}` inside the prefix with something
    /// in between. Every key under it is then in the slot of that tag,
    /// whatever tag the key has (see above).
    pub fn tagged(prefix: impl Into<String>) -> Result<KeyPrefix, InvalidKeyPrefix> {
        let prefix = prefix.into();
        let Some(open) = prefix.find('{') else {
            return Err(InvalidKeyPrefix::new(prefix, Problem::NoTag));
        };
        match prefix[open + 1..].find('}') {
            Some(close) if close > 0 => Ok(KeyPrefix::from_valid(prefix)),
            Some(_) => Err(InvalidKeyPrefix::new(prefix, Problem::EmptyTag)),
            None => Err(InvalidKeyPrefix::new(prefix, Problem::Unclosed)),
        }
    }

    fn from_valid(prefix: String) -> KeyPrefix {
        KeyPrefix {
            text: prefix.into(),
        }
    }

    /// The prefix.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is the empty prefix, which changes nothing.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Whether the prefix carries its own hash tag (made by
    /// [`tagged`](Self::tagged)).
    pub fn is_tagged(&self) -> bool {
        self.text.contains('{')
    }

    /// `key` under this prefix, as the server stores it: for plain commands
    /// on keys that prefixed script calls wrote.
    pub fn apply(&self, key: &str) -> String {
        let mut prefixed = String::with_capacity(self.text.len() + key.len());
        prefixed.push_str(&self.text);
        prefixed.push_str(key);
        prefixed
    }

    /// Writes `key` under this prefix as one argument: how every key of a
    /// call gets its prefix.
    pub(crate) fn write_key(&self, out: &mut impl RedisWrite, key: &[u8]) {
        use std::io::Write as _;
        let mut arg = out.writer_for_next_arg();
        // Writing into the command's buffer cannot fail.
        let _ = arg.write_all(self.text.as_bytes());
        let _ = arg.write_all(key);
    }
}

impl fmt::Debug for KeyPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("KeyPrefix").field(&self.as_str()).finish()
    }
}

impl fmt::Display for KeyPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A prefix refused by [`KeyPrefix::new`] or [`KeyPrefix::tagged`]: it
/// would change which hash tag decides a key's slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidKeyPrefix {
    prefix: String,
    problem: Problem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Problem {
    HasBrace,
    NoTag,
    EmptyTag,
    Unclosed,
}

impl InvalidKeyPrefix {
    fn new(prefix: String, problem: Problem) -> InvalidKeyPrefix {
        InvalidKeyPrefix { prefix, problem }
    }

    /// The refused prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

impl fmt::Display for InvalidKeyPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.problem {
            Problem::HasBrace => {
                "contains `{`, which would become the first `{` of every key and take the \
                 hash tag away from the key's own; to put every key in the slot of a tag \
                 of the prefix, write a whole tag such as `{tenant}:` and use KeyPrefix::tagged"
            }
            Problem::NoTag => {
                "has no hash tag (`{...}`); a prefix without one is made by KeyPrefix::new"
            }
            Problem::EmptyTag => {
                "starts its hash tag with `{}`, which a cluster does not take for a tag: \
                 every key would be hashed whole and lose its own tag"
            }
            Problem::Unclosed => {
                "opens a hash tag with `{` that it does not close: the tag would end inside \
                 the key, at its first `}`"
            }
        };
        write!(f, "key prefix {:?} {why}", self.prefix)
    }
}

impl StdError for InvalidKeyPrefix {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::slot::key_slot;

    fn slot(prefix: &KeyPrefix, key: &str) -> u16 {
        key_slot(prefix.apply(key).as_bytes())
    }

    #[test]
    fn a_plain_prefix_keeps_every_tag_and_so_every_slot() {
        for text in ["", "app:", "a}b:", "}"] {
            let prefix = KeyPrefix::new(text).unwrap();
            for key in ["{user:1}:cart", "x{user:1}", "{a}{b}", "}{t}", "foo{{bar}}"] {
                assert_eq!(
                    slot(&prefix, key),
                    key_slot(key.as_bytes()),
                    "{text:?} {key:?}"
                );
            }
        }
    }

    #[test]
    fn a_prefix_with_a_brace_is_refused_unless_it_carries_a_whole_tag() {
        for text in ["a{", "{}", "{}{t}:", "x{y}:", "{t}"] {
            let error = KeyPrefix::new(text).unwrap_err();
            assert_eq!(error.problem, Problem::HasBrace, "{text:?}");
            assert_eq!(error.prefix(), text);
        }
        let refused = |text: &str| KeyPrefix::tagged(text).unwrap_err().problem;
        assert_eq!(refused("a:"), Problem::NoTag);
        assert_eq!(refused("{}{t}:"), Problem::EmptyTag);
        assert_eq!(refused("a{b:"), Problem::Unclosed);
        // The tag may sit anywhere in the prefix.
        assert!(KeyPrefix::tagged("a{b}:").is_ok());
    }

    #[test]
    fn a_tagged_prefix_puts_every_key_in_its_tag_slot() {
        let prefix = KeyPrefix::tagged("{tenant:7}:").unwrap();
        assert!(prefix.is_tagged());
        for key in ["{user:1}:cart", "plain", "{}", "a{"] {
            assert_eq!(slot(&prefix, key), key_slot(b"tenant:7"), "{key:?}");
        }
    }

    #[test]
    fn the_message_names_the_prefix_and_the_way_out() {
        let message = KeyPrefix::new("t{7}:").unwrap_err().to_string();
        assert!(
            message.starts_with("key prefix \"t{7}:\" contains `{`"),
            "{message}"
        );
        assert!(message.contains("KeyPrefix::tagged"), "{message}");
    }
}
