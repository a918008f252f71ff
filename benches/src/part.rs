//! What a section adds to the report: its text under its heading, its rows
//! of the targets table, its plot. Each section's module implements
//! [`Part`] for its results; report.rs puts the parts in order and writes
//! what they share.

use crate::markdown::verdict;
use crate::run::Run;
use crate::section::Section;
use crate::stats::Summary;

/// One section's results, as the report shows them.
pub trait Part {
    /// The section they are of.
    fn section(&self) -> Section;

    /// The section's text, under its heading (which the report writes).
    fn write(&self, md: &mut String, run: &Run);

    /// Its rows of the targets table at the top of the report.
    fn targets(&self) -> Vec<Target> {
        Vec::new()
    }

    /// Its plot, which the report writes beside itself and shows at the
    /// end of the section.
    fn plot(&self, _run: &Run) -> Option<Plot> {
        None
    }
}

/// A row of the targets table.
pub struct Target {
    /// What is measured.
    pub what: String,
    /// The figure it must reach: `≤ 1.03x`.
    pub goal: &'static str,
    pub measured: String,
    /// `met` or `**not met**`, as [`crate::markdown::verdict`] says.
    pub verdict: &'static str,
}

impl Target {
    /// The row of a ratio whose median must be at most (`at_most`) or at
    /// least `limit`.
    pub fn ratio(
        what: String,
        goal: &'static str,
        ratio: Summary,
        limit: f64,
        at_most: bool,
    ) -> Target {
        Target {
            what,
            goal,
            measured: ratio.show_ratio(),
            verdict: verdict(&ratio, limit, at_most),
        }
    }
}

/// A plot of a section.
pub struct Plot {
    /// Its file name, in the plots' directory.
    pub file: &'static str,
    /// Its text where it cannot be shown.
    pub alt: &'static str,
    /// The SVG document.
    pub svg: String,
}
