//! `include`: a `--- @include` directive that cannot be resolved.
//!
//! `crate::compose` gives these findings while it composes a script from its files. No setting can silence them: the server refuses the file.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Never,
    check: None,
};
