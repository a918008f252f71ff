//! The `lint` section: the `redis-lua` tool's engine (its file search and
//! checks, as `redis-lua check` runs them) over BullMQ's Lua commands. The
//! package is fetched at run time with `npm pack bullmq` into
//! `target/lint-corpus/` (never committed), or read from `--lint-path DIR`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::markdown::{figure, table_head, table_row};
use crate::options::{Options, repo_root};
use crate::part::Part;
use crate::run::Run;
use crate::section::Section;

#[derive(Clone)]
pub struct Results {
    /// What was checked: the package and version, or the path given.
    pub source: String,
    /// The folder checked, as shown.
    pub folder: String,
    /// Scripts checked on their own.
    pub scripts: usize,
    /// Files checked where included.
    pub included: usize,
    /// Errors and warnings found.
    pub findings: usize,
    /// Seconds per whole check, one per round.
    pub seconds: Vec<f64>,
}

impl Results {
    /// Milliseconds per whole check, one per round.
    pub fn milliseconds(&self) -> Vec<f64> {
        self.seconds.iter().map(|s| s * 1000.0).collect()
    }
}

pub fn run(options: &Options) -> Result<Results, String> {
    let (source, folder) = match &options.lint_path {
        Some(path) => (path.display().to_string(), path.clone()),
        None => fetch_bullmq()?,
    };
    let shown = folder.display().to_string();
    let paths = vec![shown.clone()];
    let settings = redis_lua::Settings::default();
    // One untimed pass: the files in the page cache, the count to report.
    let (files, missing) = redis_lua::find_files(&paths);
    if !missing.is_empty() || files.is_empty() {
        return Err(format!("no Lua files under {shown}"));
    }
    let first = redis_lua::check_files(&files, &settings);
    let mut seconds = Vec::new();
    for _ in 0..options.rounds.max(3) {
        let clock = Instant::now();
        let (files, _) = redis_lua::find_files(&paths);
        let run = redis_lua::check_files(&files, &settings);
        seconds.push(clock.elapsed().as_secs_f64());
        assert_eq!(run.checked.len(), first.checked.len());
    }
    Ok(Results {
        source,
        folder: shown,
        scripts: first.checked.len(),
        included: first.included,
        findings: first.count(redis_script_analyzer::Severity::Error)
            + first.count(redis_script_analyzer::Severity::Warning),
        seconds,
    })
}

/// The BullMQ release the README's table reports.
const BULLMQ: &str = "bullmq@6.7.0";

/// BullMQ's package ([`BULLMQ`], pinned, so that runs compare) from the npm
/// registry, unpacked under `target/lint-corpus/`; its version and its
/// commands' folder.
fn fetch_bullmq() -> Result<(String, PathBuf), String> {
    let dir = repo_root().join("target/lint-corpus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let packed = Command::new("npm")
        .args(["pack", BULLMQ, "--silent", "--pack-destination"])
        .arg(&dir)
        .output()
        .map_err(|e| format!("npm pack {BULLMQ}: {e}"))?;
    let tarball = String::from_utf8_lossy(&packed.stdout).trim().to_owned();
    if !packed.status.success() || tarball.is_empty() {
        return Err(format!(
            "npm pack {BULLMQ} failed: {}",
            String::from_utf8_lossy(&packed.stderr).trim()
        ));
    }
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(dir.join(&tarball))
        .arg("-C")
        .arg(&dir)
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !unpacked.success() {
        return Err(format!("tar could not unpack {tarball}"));
    }
    let version = tarball
        .trim_start_matches("bullmq-")
        .trim_end_matches(".tgz")
        .to_owned();
    let commands = [
        "package/dist/esm/commands",
        "package/dist/cjs/commands",
        "package/src/commands",
    ]
    .iter()
    .map(|sub| dir.join(sub))
    .find(|path| path.is_dir())
    .ok_or("no commands folder in the bullmq package")?;
    Ok((format!("bullmq {version} (npm)"), relative(&commands)))
}

/// `path` relative to the repository, as findings show it.
fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(repo_root())
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

/// The section's results, or why it could not run.
impl Part for Result<Results, String> {
    fn section(&self) -> Section {
        Section::Lint
    }

    fn write(&self, md: &mut String, _run: &Run) {
        let l = match self {
            Ok(l) => l,
            Err(why) => {
                let _ = writeln!(md, "Could not run: {why}.\n");
                return;
            }
        };
        let _ = writeln!(
            md,
            "The tool's engine (`redis_lua::find_files` and `check_files`, what `redis-lua check` \
             runs, in this release build) over `{}`: {}, fetched at run time, never committed. \
             Each of {} rounds finds, reads, composes and checks every file, pinned to the \
             clients' CPU; one untimed pass first.\n",
            l.folder,
            l.source,
            l.seconds.len()
        );
        table_head(
            md,
            [
                "scripts",
                "included files",
                "findings",
                "ms per check",
                "scripts per s",
            ],
        );
        let rate: Vec<f64> = l.seconds.iter().map(|s| l.scripts as f64 / s).collect();
        table_row(
            md,
            [
                l.scripts.to_string(),
                l.included.to_string(),
                l.findings.to_string(),
                figure(&l.milliseconds(), 1),
                figure(&rate, 0),
            ],
        );
        let _ = writeln!(md);
    }
}
