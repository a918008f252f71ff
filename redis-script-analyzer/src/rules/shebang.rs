//! `shebang`: the `#!lua` line: an unknown flag, or options no server reads.
//!
//! `crate::shebang` reads the line as each targeted server does and gives these findings. No setting can silence them: the server refuses the file.

use super::{Judges, Meta};

pub(super) const RULE: Meta = Meta {
    check: None,
    judges: Judges::File,
};
