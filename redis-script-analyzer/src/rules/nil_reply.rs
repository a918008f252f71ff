//! `nil_reply`: a nil or false reply into a type that cannot hold it.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::CommandLine,
    check: None,
};
