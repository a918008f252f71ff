//! `unknown_subcommand`: a subcommand a container command does not have (`CONFIG GETT`).
//!
//! Its findings still come from the walks in `crate::check`.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Anywhere,
    check: None,
};
