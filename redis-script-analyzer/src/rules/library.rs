//! `library`: a Redis Functions library that FUNCTION LOAD refuses (its `#!lua name=` line, its registrations, what its top level does).
//!
//! `crate::library` gives these findings while it reads the library. No setting can silence them: the server refuses the file.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Never,
    check: None,
};
