//! `unknown_member`: a library member that does not exist (`string.fromat`).
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Anywhere,
    check: None,
};
