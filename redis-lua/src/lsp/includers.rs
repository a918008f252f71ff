//! Which files of the workspace include which: the index a fragment's
//! check asks for the scripts that include it. Built once from the
//! workspace's Lua files (the open documents' text first), kept up to date
//! as documents change, and built again when the client says files
//! changed on disk (it watches the Lua files and the config files).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use redis_script_analyzer::compose;

use super::documents::Documents;

/// How many of a fragment's includers are checked for it: a helper that
/// every script of a project includes is checked in that many of them.
pub(crate) const MOST_INCLUDERS: usize = 16;

/// The direct includes of the workspace's Lua files, both ways, by paths
/// made plain ([`compose::normalize`]).
#[derive(Debug, Default)]
pub(crate) struct IncludeIndex {
    /// The files each file includes directly.
    includes: HashMap<PathBuf, Vec<PathBuf>>,
    /// The files that include each file directly.
    included_by: HashMap<PathBuf, Vec<PathBuf>>,
}

impl IncludeIndex {
    /// The index of the Lua files under `roots`, read through `documents`.
    pub(crate) fn build(roots: &[PathBuf], documents: &Documents) -> IncludeIndex {
        let mut index = IncludeIndex::default();
        let (files, _) = crate::walk::find_files(roots);
        for (_, file) in &files {
            if let Ok(source) = documents.read(file) {
                index.update(file, &source);
            }
        }
        index
    }

    /// The file at `file` now holds `source`: its includes are read again.
    pub(crate) fn update(&mut self, file: &Path, source: &[u8]) {
        let file = compose::normalize(file);
        let targets: Vec<PathBuf> = compose::direct_includes(&file, source)
            .iter()
            .map(|target| compose::normalize(target))
            .collect();
        let old = self.includes.insert(file.clone(), targets.clone());
        if old.as_ref() == Some(&targets) {
            return;
        }
        for target in old.into_iter().flatten() {
            if let Some(includers) = self.included_by.get_mut(&target) {
                includers.retain(|includer| *includer != file);
            }
        }
        for target in targets {
            let includers = self.included_by.entry(target).or_default();
            if !includers.contains(&file) {
                includers.push(file.clone());
            }
        }
        self.included_by
            .retain(|_, includers| !includers.is_empty());
    }

    /// The scripts whose includes reach the file at `path`, directly or
    /// through other fragments: the files up the includes that nothing
    /// includes, sorted, at most [`MOST_INCLUDERS`].
    pub(crate) fn scripts_including(&self, path: &Path) -> Vec<PathBuf> {
        let path = compose::normalize(path);
        let mut scripts = Vec::new();
        let mut seen = HashSet::from([path.clone()]);
        let mut next = vec![path];
        while let Some(file) = next.pop() {
            for includer in self.included_by.get(&file).into_iter().flatten() {
                if !seen.insert(includer.clone()) {
                    continue;
                }
                if self.included_by.contains_key(includer) {
                    next.push(includer.clone());
                } else {
                    scripts.push(includer.clone());
                }
            }
        }
        scripts.sort();
        scripts.truncate(MOST_INCLUDERS);
        scripts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_found_up_the_includes_and_edits_move_them() {
        let mut index = IncludeIndex::default();
        let root = Path::new("/w");
        index.update(&root.join("a.lua"), b"--- @include \"lib/mid\"\nreturn 1\n");
        index.update(
            &root.join("b.lua"),
            b"--- @include \"lib/leaf\"\nreturn 1\n",
        );
        index.update(&root.join("lib/mid.lua"), b"--- @include \"leaf\"\n");
        let leaf = root.join("lib/leaf.lua");
        assert_eq!(
            index.scripts_including(&leaf),
            [root.join("a.lua"), root.join("b.lua")]
        );
        assert_eq!(
            index.scripts_including(&root.join("lib/mid.lua")),
            [root.join("a.lua")]
        );
        // `b.lua` no longer includes it.
        index.update(&root.join("b.lua"), b"return 1\n");
        assert_eq!(index.scripts_including(&leaf), [root.join("a.lua")]);
        assert!(index.scripts_including(&root.join("a.lua")).is_empty());
        // A cycle ends.
        index.update(&leaf, b"--- @include \"mid\"\n");
        assert!(index.scripts_including(&leaf).len() <= 1);
    }
}
