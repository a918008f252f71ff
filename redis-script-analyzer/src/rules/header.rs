//! `header`: a signature header (`---@key`, `---@param`, `---@return`) that does not parse.
//!
//! `crate::header` gives these findings while it reads the header. No setting can silence them: the server refuses the file.

use super::{Judges, Meta};

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};
