//! A path that could not be checked, and why.

/// A path that could not be checked, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trouble {
    /// The path as given or found.
    pub path: String,
    /// Why it could not be read.
    pub why: String,
}

impl Trouble {
    pub(crate) fn new(path: impl Into<String>, why: impl Into<String>) -> Trouble {
        Trouble {
            path: path.into(),
            why: why.into(),
        }
    }
}

impl std::fmt::Display for Trouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.why)
    }
}
