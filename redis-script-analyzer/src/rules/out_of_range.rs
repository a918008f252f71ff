//! `out_of_range`: `KEYS[n]` or `ARGV[n]` past what the declaration gives the script.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::CommandLine,
    check: None,
};
