//! The engine: [`check_files`] checks the files found, each script with
//! what it includes, and gives a [`Run`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use redis_script_analyzer::Severity;
use redis_script_analyzer::compose;
use redis_script_analyzer::lint::{self, FileKind, FileReport};

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
    let mut run = Run::default();
    let canonicals: Vec<PathBuf> = files.iter().map(|(_, path)| canonical(path)).collect();
    let mut targets = HashSet::new();
    for (_, path) in files {
        if let Ok(source) = read_source(path) {
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
            if let Ok(source) = read_source(path) {
                let composed = compose::compose(display, path, source, &mut |p| std::fs::read(p));
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
        let source = match read_source(path) {
            Ok(source) => source,
            Err(why) => {
                unreadable.push((index, Trouble::new(display.as_str(), why)));
                continue;
            }
        };
        let report = lint::check_file(display, path, source, &mut |p| std::fs::read(p), &options);
        let whole = report.kind != FileKind::Uncomposed;
        reach(&report.included, whole, &mut included, &mut covered);
        checked.push((
            index,
            Checked {
                display: display.clone(),
                path: path.clone(),
                report,
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
    // A mistake in a file several scripts include is shown once.
    let mut seen = HashSet::new();
    for checked in &mut run.checked {
        checked.report.findings.retain(|finding| {
            seen.insert((
                finding.file.clone(),
                finding.line,
                finding.column,
                finding.rule,
                finding.message.clone(),
            ))
        });
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

/// The file's bytes (as the server reads a script: they need not be
/// UTF-8), or why it cannot be read.
fn read_source(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| error.to_string())
}
