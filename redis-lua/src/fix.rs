//! `check --fix`: the certain fixes of a run made in the files on disk.
//!
//! The findings carry their fixes already placed in the file their text is
//! in ([`FileFix`]); [`apply`] makes edits in a file's bytes, and
//! [`fix_files`] runs the checks, applies every certain fix, and runs them
//! again until nothing changes, since one fix may let the checks see what
//! another corrects (a script that did not parse does after `!=` becomes
//! `~=`).

use std::collections::HashMap;
use std::path::PathBuf;

use redis_script_analyzer::fix::{Applicability, FileEdit, FileFix};
use redis_script_analyzer::lint::SourceFile;

use crate::check::{Run, check_files};
use crate::settings::Settings;
use crate::trouble::Trouble;
use crate::walk::canonical;

pub use crate::check::Fixed;

/// How many times [`fix_files`] checks and fixes at most: each round's
/// fixes may show findings whose fixes the next round applies, and a
/// handful of rounds settles any real script.
pub const MAX_ROUNDS: usize = 5;

/// `source` with `edits` made, each replacing the bytes from its
/// `start.offset` to its `end.offset`. The edits are taken in the order of
/// the text; one that overlaps an edit taken before it (or two insertions
/// at one place, whose order would be a guess), or that lies outside
/// `source`, is left out. Bytes outside the edits stay as they are, UTF-8
/// or not, line endings included.
pub fn apply(source: &[u8], edits: &[FileEdit]) -> Vec<u8> {
    let mut sorted: Vec<&FileEdit> = edits.iter().collect();
    sorted.sort_by_key(|edit| (edit.start.offset, edit.end.offset));
    let mut out = Vec::with_capacity(source.len());
    // The text is copied from the start, each edit made as it is reached:
    // offsets refer to the original bytes, as when edits are made from the
    // end, and each byte is copied once.
    let mut copied = 0;
    let mut last_insertion = None;
    for edit in sorted {
        let (start, end) = (edit.start.offset, edit.end.offset);
        let insertion = start == end;
        if start < copied || end < start || end > source.len() {
            continue;
        }
        if insertion && last_insertion == Some(start) {
            continue;
        }
        out.extend_from_slice(&source[copied..start]);
        out.extend_from_slice(edit.replacement.as_bytes());
        copied = end;
        last_insertion = insertion.then_some(start);
    }
    out.extend_from_slice(&source[copied..]);
    out
}

/// The fixes of `fixes` (all in one file) that can be made together: in
/// the order of their first edit, each fix none of whose edits overlaps an
/// edit of a fix taken before it. A fix is made whole or not at all; one
/// left out here is found again by the next check.
pub fn compatible<'f>(fixes: &[&'f FileFix]) -> Vec<&'f FileFix> {
    let mut sorted = fixes.to_vec();
    sorted.sort_by_key(|fix| fix.edits.first().map(|edit| edit.start.offset));
    let mut taken: Vec<&FileFix> = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for fix in sorted {
        let clashes = fix.edits.iter().any(|edit| {
            let (start, end) = (edit.start.offset, edit.end.offset);
            spans
                .iter()
                .any(|&(s, e)| (start < e && s < end) || (start == end && s == e && s == start))
        });
        if !clashes {
            spans.extend(fix.edits.iter().map(|e| (e.start.offset, e.end.offset)));
            taken.push(fix);
        }
    }
    taken
}

/// Checks `files` as [`check_files`] does, applies every certain fix of
/// the findings to the files they are in, and checks again, until a check
/// finds nothing more to fix or [`MAX_ROUNDS`] rounds have fixed something.
/// The run returned is the last check, of the files as they are now, with
/// what was applied to each ([`Run::fixed`]) and the files that could not
/// be written ([`Run::unreadable`]). A file is written only when its bytes
/// change, and never when the fixes would make Lua the server loads into
/// Lua it does not (a safeguard: each fix keeps the script loading).
pub fn fix_files(files: &[(String, PathBuf)], settings: &Settings) -> Run {
    let mut applied: Vec<Fixed> = Vec::new();
    let mut troubles = Vec::new();
    let mut run = check_files(files, settings);
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for (file, fixes) in certain_fixes(&run) {
            match fix_file(file, &fixes) {
                Ok(0) => {}
                Ok(count) => {
                    changed = true;
                    match applied.iter_mut().find(|fixed| fixed.file == file.display) {
                        Some(fixed) => fixed.fixes += count,
                        None => applied.push(Fixed {
                            file: file.display.clone(),
                            fixes: count,
                        }),
                    }
                }
                Err(why) => troubles.push(Trouble::new(file.display.as_str(), why)),
            }
        }
        if !changed {
            break;
        }
        run = check_files(files, settings);
    }
    run.fixed = applied;
    run.unreadable.extend(troubles);
    run
}

/// The certain fixes of `run`, by the file they are in (as the check read
/// it), in the order the files first have one.
fn certain_fixes(run: &Run) -> Vec<(&SourceFile, Vec<&FileFix>)> {
    let mut by_file: Vec<(&SourceFile, Vec<&FileFix>)> = Vec::new();
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for checked in &run.checked {
        let report = &checked.report;
        for finding in &report.findings {
            for fix in &finding.fixes {
                if fix.applicability != Applicability::Certain {
                    continue;
                }
                let at = *index.entry(canonical(&fix.path)).or_insert_with(|| {
                    by_file.push((report.file(finding), Vec::new()));
                    by_file.len() - 1
                });
                by_file[at].1.push(fix);
            }
        }
    }
    by_file
}

/// Makes the compatible ones of `fixes` in `file`, whose bytes are those
/// the fixes were placed in: how many were made (0 when the file would not
/// change, or would stop loading), or why it could not be written.
fn fix_file(file: &SourceFile, fixes: &[&FileFix]) -> Result<usize, String> {
    let (path, source) = (&file.path, &file.source);
    let taken = compatible(fixes);
    let edits: Vec<FileEdit> = taken
        .iter()
        .flat_map(|fix| fix.edits.iter().cloned())
        .collect();
    let fixed = apply(source, &edits);
    let loaded = redis_script_analyzer::check_syntax(source).is_ok();
    if fixed == *source || (loaded && redis_script_analyzer::check_syntax(&fixed).is_err()) {
        return Ok(0);
    }
    std::fs::write(path, &fixed).map_err(|error| format!("cannot write the fixes: {error}"))?;
    Ok(taken.len())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use redis_script_analyzer::lint::{FileOptions, check_file};

    /// The fixes of every finding on `source`, as `check` gives them.
    fn fixes_of(source: &[u8]) -> Vec<FileFix> {
        let report = check_file(
            "x.lua",
            Path::new("x.lua"),
            source.to_vec(),
            &mut |_| Err(std::io::ErrorKind::NotFound.into()),
            &FileOptions::default(),
        );
        report
            .findings
            .into_iter()
            .flat_map(|finding| finding.fixes)
            .collect()
    }

    fn certain(fixes: &[FileFix]) -> Vec<&FileFix> {
        fixes
            .iter()
            .filter(|fix| fix.applicability == Applicability::Certain)
            .collect()
    }

    #[test]
    fn edits_are_made_in_the_bytes_whatever_they_are() {
        let source =
            b"-- caf\xe9\r\nif redis.call('GET', KEYS[1]) == nil then return tonumbr('\xff') end\r\n";
        let fixes = fixes_of(source);
        let taken = compatible(&certain(&fixes));
        assert_eq!(taken.len(), 2, "{fixes:?}");
        let edits: Vec<FileEdit> = taken.iter().flat_map(|f| f.edits.clone()).collect();
        assert_eq!(
            apply(source, &edits),
            b"-- caf\xe9\r\nif not redis.call('GET', KEYS[1]) then return tonumber('\xff') end\r\n"
        );
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let source = b"return redis.call('GTE', KEYS[1])";
        let fixes = fixes_of(source);
        let fix = certain(&fixes)[0];
        // The same fix twice: made once.
        assert_eq!(compatible(&[fix, fix]).len(), 1);
        let edits = [fix.edits.clone(), fix.edits.clone()].concat();
        assert_eq!(apply(source, &edits), b"return redis.call('GET', KEYS[1])");
        // Edits outside the source, or reversed, are left out, not a panic.
        let mut outside = fix.edits[0].clone();
        outside.start.offset = 100;
        outside.end.offset = 101;
        let mut reversed = fix.edits[0].clone();
        reversed.start.offset = 5;
        reversed.end.offset = 2;
        assert_eq!(apply(source, &[outside, reversed]), source);
    }

    #[test]
    fn two_insertions_at_one_place_are_one_too_many() {
        let source = b"local v = redis.call('GET', KEYS[1])\nreturn redis.call('GETT', v)\n";
        let fixes = fixes_of(source);
        let allow = fixes
            .iter()
            .find(|fix| fix.applicability == Applicability::Suggested)
            .expect("an allow");
        assert_eq!(compatible(&[allow, allow]).len(), 1);
        let edits = [allow.edits.clone(), allow.edits.clone()].concat();
        assert_eq!(
            apply(source, &edits),
            b"local v = redis.call('GET', KEYS[1])\n-- redis-lua: allow(unknown_commands)\n\
              return redis.call('GETT', v)\n"
        );
    }
}
