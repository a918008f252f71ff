//! TODO

/// The scripts of this recipe.
pub(crate) const SCRIPTS: &[&crate::Script] = &[];
