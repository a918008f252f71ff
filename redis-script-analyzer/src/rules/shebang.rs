//! `shebang`: the `#!lua` line: an unknown flag, or options no server reads.
//!
//! `crate::shebang` reads the line as each targeted server does and gives these findings. No setting can silence them: the server refuses the file.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Never,
    check: None,
};
