//! Versions as the specifications write them (`7.2.0`, a release `7.4`).

/// `major.minor.patch`; a missing part reads as 0.
pub type Version = (u32, u32, u32);

/// Reads `7.2.0` (and `7.4`).
pub fn version(text: &str) -> Version {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

/// The text of a version: `7.2.0`.
pub fn text(version: Version) -> String {
    format!("{}.{}.{}", version.0, version.1, version.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_part_reads_as_zero() {
        assert_eq!(version("7.4"), (7, 4, 0));
        assert_eq!(text(version("2.6.12")), "2.6.12");
    }
}
