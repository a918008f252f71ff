//! `directive`: a `-- redis-lua: allow(...)` comment naming no rule an allow may silence.
//!
//! `crate::inline_allow::inline_allows` gives these findings while it reads the comments. No setting can silence them: the server refuses the file.

use super::{Judges, Meta};

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};
