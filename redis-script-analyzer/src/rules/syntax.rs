//! `syntax`: the script is not Lua 5.1 as the server parses it.
//!
//! The parser (`crate::syntax::parser`) gives these findings, with the words of `SCRIPT LOAD`. No setting can silence them: the server refuses the file.

use super::{Allow, Meta};
use crate::diagnostic::Severity;

pub(super) const RULE: Meta = Meta {
    severity: Severity::Error,
    allow: Allow::Never,
    check: None,
};
