//! `unread`: a declared key or argument the script never reads.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Warning,
    allow: Allow::Anywhere,
    check: None,
};
