//! The Markdown every section of the report writes with: tables, figures
//! with their range, and verdicts against a target.

use std::fmt::Write as _;

use crate::stats::Summary;

/// A markdown table's header line and the separator under it.
pub fn table_head<S: AsRef<str>>(md: &mut String, headers: impl IntoIterator<Item = S>) {
    let headers: Vec<S> = headers.into_iter().collect();
    table_row(md, &headers);
    let _ = writeln!(md, "|{}", "---|".repeat(headers.len()));
}

/// One line of a markdown table.
pub fn table_row<S: AsRef<str>>(md: &mut String, cells: impl IntoIterator<Item = S>) {
    let _ = write!(md, "|");
    for cell in cells {
        let _ = write!(md, " {} |", cell.as_ref());
    }
    let _ = writeln!(md);
}

/// The median of `values` with its range, each with `decimals` decimals;
/// `–` for no values.
pub fn figure(values: &[f64], decimals: usize) -> String {
    Summary::of(values).map_or("–".into(), |s| s.show(decimals))
}

/// A ratio with its range, `–` when there is none.
pub fn ratio(summary: Option<Summary>) -> String {
    summary.map_or("–".into(), |r| r.show_ratio())
}

/// Met or not, by the median; says so when the range crosses the target.
pub fn verdict(ratio: &Summary, target: f64, at_most: bool) -> &'static str {
    let met = |x: f64| if at_most { x <= target } else { x >= target };
    match (met(ratio.median), met(ratio.min) == met(ratio.max)) {
        (true, true) => "met",
        (true, false) => "met (median; the range crosses the target)",
        (false, true) => "**not met**",
        (false, false) => "**not met** (median; the range crosses the target)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(median: f64, min: f64, max: f64) -> Summary {
        Summary { median, min, max }
    }

    #[test]
    fn verdicts_follow_the_median_and_flag_a_range_that_crosses() {
        assert_eq!(verdict(&summary(1.01, 1.0, 1.02), 1.03, true), "met");
        assert_eq!(
            verdict(&summary(1.02, 1.0, 1.05), 1.03, true),
            "met (median; the range crosses the target)"
        );
        assert_eq!(
            verdict(&summary(0.9, 0.85, 0.92), 0.95, false),
            "**not met**"
        );
        assert_eq!(
            verdict(&summary(0.94, 0.9, 0.99), 0.95, false),
            "**not met** (median; the range crosses the target)"
        );
    }
}
