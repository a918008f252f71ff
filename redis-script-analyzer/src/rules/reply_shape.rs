//! `reply_shape`: a reply whose shape the declared type cannot hold.
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::CommandLine,
    check: None,
};
