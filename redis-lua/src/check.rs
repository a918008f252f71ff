//! The engine: [`check_files`] checks the files found, each script with
//! what it includes, and gives a [`Run`].

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use redis_script_analyzer::Severity;
use redis_script_analyzer::compose;
use redis_script_analyzer::lint::{self, FileKind, FileReport};

use crate::disk::Disk;
use crate::settings::Settings;
use crate::trouble::Trouble;
use crate::walk::{Found, canonical};

/// A file checked.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its path as shown (as given, or joined onto the folder given).
    pub display: String,
    /// Its path on disk.
    pub path: PathBuf,
    /// The findings.
    pub report: FileReport,
    /// For each finding of `report` in a file it includes, the other
    /// scripts checked that include that file and have the same finding
    /// there, each with the line of its `--- @include` (the finding is
    /// shown once, in the first).
    pub also_included_from: Vec<Vec<(String, usize)>>,
}

impl Checked {
    /// The finding at `index` of the report, and every script that
    /// includes its file with it, each with the line of its include:
    /// this one's chain first, then the others'.
    pub fn included_from(&self, index: usize) -> Vec<(&str, usize)> {
        let finding = &self.report.findings[index];
        let mut chain = self.report.included_from(finding);
        if let Some(others) = self.also_included_from.get(index) {
            chain.extend(others.iter().map(|(file, line)| (file.as_str(), *line)));
        }
        chain
    }
}

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Each file checked on its own, in the order found.
    pub checked: Vec<Checked>,
    /// Files not checked on their own because another file includes them.
    pub included: usize,
    /// Files the config excludes.
    pub excluded: usize,
    /// Paths that could not be read (missing, not a file), each
    /// with why; with `--fix`, files that could not be written too.
    pub unreadable: Vec<Trouble>,
    /// With `--fix`, the files fixes were applied to ([`fix_files`](crate::fix::fix_files)).
    pub fixed: Vec<Fixed>,
}

/// The fixes applied to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The file as shown (as its findings name it).
    pub file: String,
    /// How many fixes were applied to it.
    pub fixes: usize,
}

impl Run {
    /// The number of findings of `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.checked
            .iter()
            .flat_map(|checked| &checked.report.findings)
            .filter(|finding| finding.severity == severity)
            .count()
    }

    /// How many files were checked as libraries.
    pub fn libraries(&self) -> usize {
        self.checked
            .iter()
            .filter(|checked| checked.report.kind == FileKind::Library)
            .count()
    }
}

/// Checks `files` under `settings`. A file another one includes is checked
/// only as part of it: an include is a fragment, not a script (BullMQ's
/// `includes/` hold helpers that use the including script's locals); a
/// finding in it is reported once, however many scripts include it. A file
/// is a fragment too when the script including it fails to compose (the
/// files reached before the error) or is excluded by the config.
///
/// Files that no other file includes are composed first, and a file that
/// a script composed whole already reached is not composed again on its
/// own: it is a fragment, and what it includes was reached with it. So a
/// chain of includes is composed once, not once from each of its files.
pub fn check_files(files: &[Found], settings: &Settings) -> Run {
    check_files_from(files, settings, &mut Disk::default())
}

/// [`check_files`], each file's bytes taken from `disk`.
fn check_files_from(files: &[Found], settings: &Settings, disk: &mut Disk) -> Run {
    let mut run = Run::default();
    let canonicals: Vec<PathBuf> = files.iter().map(|(_, path)| canonical(path)).collect();
    let mut targets = HashSet::new();
    for (_, path) in files {
        if let Ok(source) = disk.read(path) {
            let named = compose::direct_includes(path, &source);
            targets.extend(named.iter().map(|target| canonical(target)));
        }
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&index| targets.contains(&canonicals[index]));
    drop(targets);
    // Every file reached by some file's includes: a fragment.
    let mut included = HashSet::new();
    // The files reached by compositions that succeeded: each one's own
    // composition would reach nothing more.
    let mut covered = HashSet::new();
    let mut checked = Vec::new();
    let mut unreadable = Vec::new();
    // Fragments not checked on their own: covered by a script before them.
    let mut skipped = 0;
    for index in order {
        let (display, path) = &files[index];
        let per_file = settings.config.as_ref().map(|config| config.for_file(path));
        let excluded = per_file.is_some_and(|file| file.excluded);
        if excluded {
            run.excluded += 1;
        }
        if covered.contains(&canonicals[index]) {
            skipped += usize::from(!excluded);
            continue;
        }
        if excluded {
            // Not checked, but what it includes is a fragment all the same.
            if let Ok(source) = disk.read(path) {
                let composed = compose::compose(display, path, source, &mut |p| disk.read(p));
                let (reached, whole) = match &composed {
                    Ok(composed) => (
                        composed.files[1..].iter().map(|f| f.path.clone()).collect(),
                        true,
                    ),
                    Err(error) => (error.reached.clone(), false),
                };
                reach(&reached, whole, &mut included, &mut covered);
            }
            continue;
        }
        let options = settings.options(per_file);
        let source = match disk.read(path) {
            Ok(source) => source,
            Err(why) => {
                unreadable.push((index, Trouble::new(display.as_str(), why.to_string())));
                continue;
            }
        };
        let report = lint::check_file(display, path, source, &mut |p| disk.read(p), &options);
        let whole = report.kind != FileKind::Uncomposed;
        reach(&report.included, whole, &mut included, &mut covered);
        checked.push((
            index,
            Checked {
                display: display.clone(),
                path: path.clone(),
                report,
                also_included_from: Vec::new(),
            },
        ));
    }
    // In the order found, whatever order they were checked in.
    checked.sort_by_key(|(index, _)| *index);
    unreadable.sort_by_key(|(index, _)| *index);
    run.unreadable = unreadable.into_iter().map(|(_, trouble)| trouble).collect();
    let before = checked.len();
    run.checked = checked
        .into_iter()
        .filter(|(index, _)| !included.contains(&canonicals[*index]))
        .map(|(_, checked)| checked)
        .collect();
    run.included = skipped + before - run.checked.len();
    // A mistake in a file several scripts include is shown once, naming
    // every script that includes it.
    let mut first = HashMap::new();
    let mut also: Vec<Vec<Vec<(String, usize)>>> = vec![Vec::new(); run.checked.len()];
    for (at, checked) in run.checked.iter_mut().enumerate() {
        let findings = std::mem::take(&mut checked.report.findings);
        let files = &checked.report.files;
        let mut kept = Vec::new();
        for finding in findings {
            let file = &files[finding.file.min(files.len() - 1)];
            let key = (
                file.display.clone(),
                finding.span,
                finding.rule,
                finding.message.clone(),
            );
            match first.get(&key) {
                None => {
                    first.insert(key, (at, kept.len()));
                    kept.push(finding);
                }
                Some(&(shown_in, index)) => {
                    // This script's own include that brings the file in.
                    let line = files
                        .included_from(finding.file)
                        .last()
                        .map_or(0, |(_, line)| *line);
                    let includer = (checked.display.clone(), line);
                    let others = &mut also[shown_in];
                    others.resize_with(others.len().max(index + 1), Vec::new);
                    if shown_in != at && !others[index].contains(&includer) {
                        others[index].push(includer);
                    }
                }
            }
        }
        checked.report.findings = kept;
    }
    for (checked, also) in run.checked.iter_mut().zip(also) {
        checked.also_included_from = also;
    }
    run
}

/// Adds the files a composition reached to the fragments, and to the files
/// covered when it composed `whole`.
fn reach(
    reached: &[PathBuf],
    whole: bool,
    included: &mut HashSet<PathBuf>,
    covered: &mut HashSet<PathBuf>,
) {
    for path in reached {
        let path = canonical(path);
        if whole {
            covered.insert(path.clone());
        }
        included.insert(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::find_files;

    /// A fresh folder under the system's temporary folder, with `files`.
    fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("redis-lua-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    #[test]
    fn each_file_is_read_once_however_many_scripts_include_it() {
        let shared =
            "--- @include \"deep\"\nlocal function get(k) return redis.call('GETT', k) end\n";
        let dir = project(
            "read-once",
            &[
                (
                    "a.lua",
                    "--- @include \"lib/shared\"\nreturn get(KEYS[1])\n",
                ),
                (
                    "b.lua",
                    "--- @include \"lib/shared\"\nreturn get(KEYS[2])\n",
                ),
                ("c.lua", "--- @include \"lib/deep\"\nreturn 1\n"),
                ("lib/shared.lua", shared),
                ("lib/deep.lua", "local deep = 1\n"),
            ],
        );
        let (files, missing) = find_files(&[&dir]);
        assert!(missing.is_empty(), "{missing:?}");
        assert_eq!(files.len(), 5);
        let mut disk = Disk::default();
        let run = check_files_from(&files, &Settings::default(), &mut disk);
        assert_eq!(disk.reads(), 5, "five files, each read once");
        // The finding in the shared file is shown once, quoting the bytes
        // the check read, whatever the file holds now.
        std::fs::write(dir.join("lib/shared.lua"), "-- changed\n").expect("write");
        let shown: Vec<String> = run
            .checked
            .iter()
            .flat_map(|checked| {
                let report = &checked.report;
                report.findings.iter().map(|f| report.rendered(f))
            })
            .collect();
        assert_eq!(shown.len(), 1, "{shown:#?}");
        assert!(
            shown[0].contains("2 | local function get(k) return redis.call('GETT', k) end"),
            "{}",
            shown[0]
        );
        // It names both scripts that include the file.
        let (at, checked) = run
            .checked
            .iter()
            .flat_map(|checked| (0..checked.report.findings.len()).map(move |at| (at, checked)))
            .next()
            .expect("the finding");
        let includers: Vec<(String, usize)> = checked
            .included_from(at)
            .into_iter()
            .map(|(file, line)| (file.rsplit('/').next().unwrap_or(file).to_owned(), line))
            .collect();
        assert_eq!(
            includers,
            [("a.lua".to_owned(), 1), ("b.lua".to_owned(), 1)]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
