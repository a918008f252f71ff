//! `include`: a `--- @include` directive that cannot be resolved.
//!
//! `crate::compose` gives these findings while it composes a script from its files. No setting can silence them: the server refuses the file.

use super::{Judges, Meta};

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};
