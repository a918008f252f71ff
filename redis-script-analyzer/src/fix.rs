//! Fixes: edits to a script that a finding carries when the change that
//! corrects it is known.
//!
//! A rule attaches a [`Fix`] to its [`Diagnostic`](crate::Diagnostic) in
//! the text it analysed (a script composed with its includes), and only
//! when the fix is [certain](Applicability::Certain): `!=` for `~=`, a
//! misspelt name with a single suggestion, a comparison with `nil` that
//! never holds. [`lint::check_file`](crate::lint::check_file) places each
//! in the file its text is in ([`FileFix`], in byte offsets and in lines and
//! columns), and adds to each finding a rule may allow a
//! [suggested](Applicability::Suggested) fix: an allow comment above its
//! line. A command-line fixer applies the certain ones; an editor offers
//! both.

pub(crate) mod edit;
mod placed;

pub use self::edit::{Applicability, Edit, Fix};
pub(crate) use self::placed::{CodeLines, allow_here, place};
pub use self::placed::{FileEdit, FileFix, Position};
