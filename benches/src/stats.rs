//! Medians with their range, and the number formats of the report.

/// The median of a set of measurements (one per round) and its range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// The summary of `values`; `None` for no values. NaNs are left out.
    pub fn of(values: &[f64]) -> Option<Summary> {
        let mut sorted: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Some(Summary {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        })
    }

    /// `median (min–max)`, each with `decimals` decimals.
    pub fn show(&self, decimals: usize) -> String {
        format!(
            "{} ({}–{})",
            number(self.median, decimals),
            number(self.min, decimals),
            number(self.max, decimals)
        )
    }

    /// As a ratio: `0.98x (0.97–1.01)`.
    pub fn show_ratio(&self) -> String {
        format!("{:.3}x ({:.3}–{:.3})", self.median, self.min, self.max)
    }
}

/// Per-round ratios `numerator[i] / denominator[i]`, summarised.
pub fn ratios(numerator: &[f64], denominator: &[f64]) -> Option<Summary> {
    let values: Vec<f64> = numerator
        .iter()
        .zip(denominator)
        .map(|(n, d)| n / d)
        .collect();
    Summary::of(&values)
}

/// `x` with `decimals` decimals and a comma between thousands: `44,494`,
/// `57.31`.
pub fn number(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let text = format!("{:.*}", decimals, x.abs());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text.as_str(), None),
    };
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if x < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    match fraction {
        Some(fraction) => format!("{sign}{grouped}.{fraction}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_an_odd_count_is_the_middle_value() {
        let s = Summary::of(&[5.0, 1.0, 3.0, 9.0, 7.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (5.0, 1.0, 9.0));
    }

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        let s = Summary::of(&[4.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (3.0, 1.0, 10.0));
    }

    #[test]
    fn no_values_no_summary_and_nans_are_left_out() {
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[f64::NAN]), None);
        assert_eq!(Summary::of(&[f64::NAN, 2.0]).unwrap().median, 2.0);
    }

    #[test]
    fn ratios_are_taken_round_by_round() {
        let s = ratios(&[2.0, 3.0, 4.0], &[2.0, 2.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (1.5, 1.0, 2.0));
    }

    #[test]
    fn numbers_group_thousands() {
        assert_eq!(number(44494.0, 0), "44,494");
        assert_eq!(number(1234567.891, 2), "1,234,567.89");
        assert_eq!(number(999.0, 0), "999");
        assert_eq!(number(-1234.0, 0), "-1,234");
        assert_eq!(number(-0.0001, 1), "0.0");
        assert_eq!(
            Summary::of(&[1.0, 2.0, 3.0]).unwrap().show(1),
            "2.0 (1.0–3.0)"
        );
    }
}
