//! `noscript_command`: a command flagged `noscript`, which scripts cannot call.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::CommandLine,
    check: None,
};
