//! Which files `check` reads: a file named on the command line, whatever
//! its name and whatever ignores it; in a folder named, the `.lua` files
//! the `ignore` crate's walk finds, in a stable order (each folder's
//! entries by name, a folder's files before it moves on to the next
//! entry). The walk passes by:
//! - hidden files and folders (a name starting with `.`);
//! - what `.ignore` files ignore, and, in a git work tree, what git
//!   ignores (`.gitignore` files, `.git/info/exclude`, the global excludes
//!   file), as git reads them;
//! - what the config's `skip` globs match ([`Config::skip`]; without a
//!   config, [`config::DEFAULT_SKIP`](crate::config::DEFAULT_SKIP)).
//!
//! Links in a folder are not followed (a link back up would repeat the
//! tree, or never end), only regular files are read (a named pipe `x.lua`
//! would block the read), and a file reached twice (named, and in a folder
//! named) is taken once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

use crate::config::{Config, slashed};
use crate::trouble::Trouble;

/// A file to check: its path as shown (as given, or joined onto the folder
/// given), and its path on disk.
pub type Found = (String, PathBuf);

/// The files to check under `paths`, searched as [this module](self) says
/// with the default `skip` ([`config::DEFAULT_SKIP`](crate::config::DEFAULT_SKIP),
/// relative to the current folder), each with its path as shown; and the
/// paths that do not exist, are not regular files or folders, or could not
/// be read.
pub fn find_files<P: AsRef<Path>>(paths: &[P]) -> (Vec<Found>, Vec<Trouble>) {
    find_files_with(paths, &Config::default())
}

/// As [`find_files`], with `config`'s `skip` (relative to its folder).
pub fn find_files_with<P: AsRef<Path>>(paths: &[P], config: &Config) -> (Vec<Found>, Vec<Trouble>) {
    let mut search = Search {
        config,
        root: canonical(&config.root),
        files: Vec::new(),
        troubles: Vec::new(),
        taken: HashSet::new(),
    };
    for given in paths {
        let path = given.as_ref();
        let display = shown(path);
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => search.folder(path, &display),
            Ok(metadata) if metadata.is_file() => search.take(display, path.to_path_buf()),
            Ok(_) => search.trouble(path, "not a regular file or folder"),
            Err(_) => search.trouble(path, "no such file or folder"),
        }
    }
    (search.files, search.troubles)
}

/// A search in progress.
struct Search<'c> {
    config: &'c Config,
    /// The config's folder, canonical: what `skip` globs are relative to.
    root: PathBuf,
    files: Vec<Found>,
    troubles: Vec<Trouble>,
    /// The canonical paths of the files taken.
    taken: HashSet<PathBuf>,
}

impl Search<'_> {
    fn take(&mut self, display: String, path: PathBuf) {
        if self.taken.insert(canonical(&path)) {
            self.files.push((display, path));
        }
    }

    fn trouble(&mut self, path: &Path, why: impl Into<String>) {
        self.troubles
            .push(Trouble::new(path.to_string_lossy(), why.into()));
    }

    /// The `.lua` files under the folder `folder`, shown as `display`.
    fn folder(&mut self, folder: &Path, display: &str) {
        // Where the entries are, as the `skip` globs see them.
        let absolute = canonical(folder);
        let relative = absolute
            .strip_prefix(&self.root)
            .map_or_else(|_| absolute.clone(), Path::to_path_buf);
        let skip = self.config.skip.clone();
        let base = folder.to_path_buf();
        let mut walk = WalkBuilder::new(folder);
        walk.standard_filters(true)
            .follow_links(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .filter_entry(move |entry| {
                let inside = entry.path().strip_prefix(&base).unwrap_or(entry.path());
                entry.depth() == 0 || !skip.matches(&slashed(&relative.join(inside)))
            });
        for entry in walk.build() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    let (path, why) = unreadable(&error);
                    let path = path.unwrap_or(folder);
                    let display = join(display, path.strip_prefix(folder).unwrap_or(path));
                    self.troubles.push(Trouble::new(display, why));
                    continue;
                }
            };
            // The entry itself, not what a link points to.
            let regular = entry.file_type().is_some_and(|kind| kind.is_file());
            let lua = entry.file_name().to_string_lossy().ends_with(".lua");
            if regular && lua {
                let inside = entry.path().strip_prefix(folder).unwrap_or(entry.path());
                self.take(join(display, inside), entry.path().to_path_buf());
            }
        }
    }
}

/// The path an error of the walk is about, if it says, and what went wrong.
fn unreadable(error: &ignore::Error) -> (Option<&Path>, String) {
    match error {
        ignore::Error::WithPath { path, err } => (Some(path), unreadable(err).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            unreadable(err)
        }
        ignore::Error::Loop { child, .. } => (Some(child), "a link loop".to_owned()),
        other => (None, other.to_string()),
    }
}

/// A path given, as shown: `./` and a trailing `/` dropped.
fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let trimmed = text.trim_start_matches("./").trim_end_matches('/');
    match trimmed {
        "" if text.starts_with('/') => "/".to_owned(),
        "" => ".".to_owned(),
        trimmed => trimmed.to_owned(),
    }
}

/// `inside` (a path in the folder shown as `display`), as shown.
fn join(display: &str, inside: &Path) -> String {
    let inside = slashed(inside);
    match display {
        "." => inside,
        _ if inside.is_empty() => display.to_owned(),
        _ if display.ends_with('/') => format!("{display}{inside}"),
        _ => format!("{display}/{inside}"),
    }
}

pub(crate) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_as_given_without_dots_and_slashes() {
        for (given, expected) in [
            ("./src/", "src"),
            ("src", "src"),
            ("./", "."),
            (".", "."),
            ("/", "/"),
            ("/tmp/x/", "/tmp/x"),
        ] {
            assert_eq!(shown(Path::new(given)), expected, "{given}");
        }
        assert_eq!(join(".", Path::new("a/b.lua")), "a/b.lua");
        assert_eq!(join("/", Path::new("a.lua")), "/a.lua");
        assert_eq!(join("src", Path::new("a.lua")), "src/a.lua");
        assert_eq!(join("src", Path::new("")), "src");
    }
}
