//! The globs of `redis-lua.toml`, read by `globset`: `*` is any run of
//! characters but `/`, `**` any run of folders, `?` one character but `/`,
//! `[ab]` and `[a-z]` one of a set, `{a,b}` either. A glob without `/`
//! matches a name in any folder (`*.lua`, `node_modules`); one with `/` a
//! path from the config file's folder (`src/**/*.lua`; a leading `./` is
//! dropped).

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// Globs, in the order written, matched against `/`-separated paths
/// relative to the config file's folder.
#[derive(Debug, Clone)]
pub struct Globs {
    texts: Vec<String>,
    set: GlobSet,
}

impl Globs {
    /// The globs `texts`; an error names the glob that does not parse
    /// (by its index) and what is wrong with it.
    pub fn new<S: AsRef<str>>(texts: &[S]) -> Result<Globs, (usize, String)> {
        let mut builder = GlobSetBuilder::new();
        for (index, text) in texts.iter().enumerate() {
            let text = text.as_ref();
            let anchored = text.trim_start_matches("./");
            let pattern = if anchored.contains('/') {
                anchored.to_owned()
            } else {
                format!("**/{anchored}")
            };
            let glob = GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
                .map_err(|error| (index, format!("the glob `{text}`: {}", error.kind())))?;
            builder.add(glob);
        }
        let set = builder
            .build()
            .map_err(|error| (0, format!("the globs: {error}")))?;
        Ok(Globs {
            texts: texts.iter().map(|text| text.as_ref().to_owned()).collect(),
            set,
        })
    }

    /// No glob.
    pub fn none() -> Globs {
        Globs {
            texts: Vec::new(),
            set: GlobSet::empty(),
        }
    }

    /// The globs as written.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// Whether one of them matches `path`.
    pub fn matches(&self, path: &str) -> bool {
        self.set.is_match(path)
    }

    /// The indexes of the globs that match `path`, in the order written.
    pub fn matching(&self, path: &str) -> Vec<usize> {
        self.set.matches(path)
    }
}

impl PartialEq for Globs {
    fn eq(&self, other: &Globs) -> bool {
        self.texts == other.texts
    }
}

impl Eq for Globs {}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(glob: &str, path: &str) -> bool {
        Globs::new(&[glob]).expect("a glob").matches(path)
    }

    #[test]
    fn globs() {
        for (glob, path, expected) in [
            ("*.lua", "a/b/c.lua", true),
            ("*.lua", "c.lua", true),
            ("src/*.lua", "src/a.lua", true),
            ("src/*.lua", "src/x/a.lua", false),
            ("src/**/*.lua", "src/a.lua", true),
            ("src/**/*.lua", "src/x/y/a.lua", true),
            ("vendor/**", "vendor/x/a.lua", true),
            ("vendor/**", "other/vendor/x/a.lua", false),
            ("addJob-?.lua", "cmd/addJob-9.lua", true),
            ("addJob-?.lua", "cmd/addJob-10.lua", false),
            ("./src/a.lua", "src/a.lua", true),
            ("{gen,vendor}/**", "gen/a.lua", true),
            ("{gen,vendor}/**", "vendor/b/a.lua", true),
            ("{gen,vendor}/**", "src/a.lua", false),
            ("*-[0-9].lua", "cmd/take-2.lua", true),
            ("*-[0-9].lua", "cmd/take-x.lua", false),
            ("[!_]*.lua", "lib/_common.lua", false),
            ("node_modules", "web/node_modules", true),
            ("node_modules", "web/node_modules/x.lua", false),
        ] {
            assert_eq!(matches(glob, path), expected, "{glob} {path}");
        }
    }

    #[test]
    fn the_matching_globs_are_in_the_order_written() {
        let globs = Globs::new(&["cmd/b.lua", "*.lua", "x/*"]).expect("globs");
        assert_eq!(globs.matching("cmd/b.lua"), [0, 1]);
        assert_eq!(globs.matching("x/y"), [2]);
    }

    #[test]
    fn a_glob_that_does_not_parse_is_named() {
        let (index, message) = Globs::new(&["a", "src/[a.lua"]).unwrap_err();
        assert_eq!(index, 1);
        assert!(message.starts_with("the glob `src/[a.lua`: "), "{message}");
    }
}
