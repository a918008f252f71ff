//! `command_arity`: a command called with a number of arguments it refuses.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Anywhere,
    check: None,
};
