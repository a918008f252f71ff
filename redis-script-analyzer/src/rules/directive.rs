//! `directive`: a `-- redis-lua: allow(...)` comment naming no rule an allow may silence.
//!
//! `crate::inline_allows` gives these findings while it reads the comments. No setting can silence them: the server refuses the file.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Never,
    check: None,
};
