//! `undefined_global`: reading a global the sandbox does not have (`keys`, `UNPACK`).
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::CommandLine,
    check: None,
};
