//! The command line.

use std::path::PathBuf;
use std::time::Duration;

use crate::section::Section;

pub const USAGE: &str = "\
redis-script-benches: measures redis-script against its targets and writes BENCHMARKS.md

usage: cargo run --release -p redis-script-benches -- [options]

  --rounds N          alternating rounds per comparison (default 5)
  --lock-seconds S    the lock benchmark's window per variant and round (default 10)
  --slice-seconds S   the time of one variant in one round, other sections (default 1)
  --build-runs N      runs of each build timing (default 3; 1 with --quick)
  --only LIST         sections to run, comma-separated, of: sequential, allocations,
                      pipelines, async, observe, noscript, lock, build, lint, scale
                      (default: all); `--only scale` or `--only build` alone
                      replaces that section of the existing report and leaves
                      the rest as it is
  --lint-path DIR     the `lint` section checks the Lua files under DIR instead of
                      BullMQ's commands (fetched with `npm pack bullmq`)
  --skip-build-cost   leave out the build timings (the `build` section)
  --skip-python       leave out the redis-py lock variants
  --quick             a smoke run: 2 rounds, 0.2 s slices, 1 s lock windows,
                      1 and 2 clients, 100 B and 4 KiB scripts, build timings
                      of one cargo check of 10 bindings (no clean builds);
                      writes to target/benchmarks-quick/ unless --out is given
  --server-cpu N      the CPU of redis-server (default 0)
  --client-cpu N      the CPU of the harness and every client (default 1)
  --no-pin            pin nothing
  --out DIR           write BENCHMARKS.md and the plots to DIR (default: the
                      repository: BENCHMARKS.md and benches/results/; built
                      with --features redis-2, BENCHMARKS-redis-2.md and
                      benches/results/redis-2/)
  -h, --help          this text
";

/// The bindings (and hand-written functions) of the crates the `build`
/// section checks.
pub const BUILD_BINDINGS: usize = 50;

/// The same with `--quick`: enough to build every kind of parameter the
/// recipes' headers declare, little enough for a smoke run.
pub const QUICK_BUILD_BINDINGS: usize = 10;

#[derive(Debug, Clone)]
pub struct Options {
    pub rounds: usize,
    pub lock_window: Duration,
    pub slice: Duration,
    pub build_runs: usize,
    /// The bindings of the crate the `build` section checks.
    pub build_bindings: usize,
    /// Whether the `build` section times clean builds of the macros crate.
    pub clean_builds: bool,
    pub sections: Vec<Section>,
    pub python: bool,
    pub quick: bool,
    pub server_cpu: Option<usize>,
    pub client_cpu: Option<usize>,
    pub out: Option<PathBuf>,
    /// The client counts of the lock benchmark.
    pub lock_clients: Vec<usize>,
    /// Indexes into `bindings::SIZES` for the pipelines.
    pub sizes: Vec<usize>,
    /// `--lint-path`: what the `lint` section checks instead of BullMQ.
    pub lint_path: Option<PathBuf>,
    /// The arguments as given, for the report.
    pub args: Vec<String>,
}

impl Options {
    /// Parses the arguments after the program name; `Err` carries the message
    /// to print (the usage for `--help`).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            rounds: 5,
            lock_window: Duration::from_secs(10),
            slice: Duration::from_secs(1),
            build_runs: 3,
            build_bindings: BUILD_BINDINGS,
            clean_builds: true,
            sections: Section::ALL.to_vec(),
            python: true,
            quick: false,
            server_cpu: Some(0),
            client_cpu: Some(1),
            out: None,
            lock_clients: vec![1, 2, 5, 10],
            sizes: vec![0, 1, 2, 3],
            lint_path: None,
            args: args.to_vec(),
        };
        // --quick first, so that explicit options given with it win.
        if args.iter().any(|a| a == "--quick") {
            options.quick = true;
            options.rounds = 2;
            options.slice = Duration::from_millis(200);
            options.lock_window = Duration::from_secs(1);
            options.lock_clients = vec![1, 2];
            options.sizes = vec![0, 2];
            // The build section still runs, small, so that a fixture the
            // macro rejects fails the smoke run.
            options.build_runs = 1;
            options.build_bindings = QUICK_BUILD_BINDINGS;
            options.clean_builds = false;
        }
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let mut value = |name: &str| {
                rest.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
            };
            match arg.as_str() {
                "-h" | "--help" => return Err(USAGE.to_string()),
                "--quick" => {}
                "--rounds" => options.rounds = positive(&value(arg)?, arg)?,
                "--build-runs" => options.build_runs = positive(&value(arg)?, arg)?,
                "--lock-seconds" => options.lock_window = seconds(&value(arg)?, arg)?,
                "--slice-seconds" => options.slice = seconds(&value(arg)?, arg)?,
                "--only" => {
                    let list = value(arg)?;
                    let mut chosen = Vec::new();
                    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                        let section = Section::ALL
                            .into_iter()
                            .find(|s| s.name() == name)
                            .ok_or_else(|| format!("--only: unknown section `{name}`"))?;
                        chosen.push(section);
                    }
                    options.sections.retain(|s| chosen.contains(s));
                }
                "--skip-build-cost" => options.sections.retain(|s| *s != Section::Build),
                "--skip-python" => options.python = false,
                "--server-cpu" => options.server_cpu = Some(number(&value(arg)?, arg)?),
                "--client-cpu" => options.client_cpu = Some(number(&value(arg)?, arg)?),
                "--no-pin" => {
                    options.server_cpu = None;
                    options.client_cpu = None;
                }
                "--out" => options.out = Some(PathBuf::from(value(arg)?)),
                "--lint-path" => options.lint_path = Some(PathBuf::from(value(arg)?)),
                other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
            }
        }
        if options.quick && options.out.is_none() {
            options.out = Some(repo_root().join("target/benchmarks-quick"));
        }
        Ok(options)
    }

    pub fn runs(&self, section: Section) -> bool {
        self.sections.contains(&section)
    }

    /// The section of a run of `--only scale`, `build`, `editor` or
    /// `test-servers`: it replaces its part of the existing report, which
    /// keeps every other figure it has.
    pub fn section_alone(&self) -> Option<Section> {
        match self.sections.as_slice() {
            [
                section
                @ (Section::Scale | Section::Build | Section::Editor | Section::TestServers),
            ] => Some(*section),
            _ => None,
        }
    }

    /// The command that reruns this run, as the report shows it.
    pub fn command_line(&self) -> String {
        let mut line = String::from("cargo run --release -p redis-script-benches");
        if cfg!(feature = "redis-2") {
            line.push_str(" --no-default-features --features redis-2");
        }
        if !self.args.is_empty() {
            line.push_str(" --");
            for arg in &self.args {
                line.push(' ');
                line.push_str(arg);
            }
        }
        line
    }
}

/// The repository's top directory.
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .canonicalize()
        .unwrap_or_else(|_| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")))
}

fn number(text: &str, name: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("{name}: `{text}` is not a whole number"))
}

fn positive(text: &str, name: &str) -> Result<usize, String> {
    match number(text, name)? {
        0 => Err(format!("{name} must be at least 1")),
        n => Ok(n),
    }
}

fn seconds(text: &str, name: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{name}: `{text}` is not a number of seconds"))?;
    if !(value.is_finite() && value > 0.0) {
        return Err(format!("{name} must be positive"));
    }
    Ok(Duration::from_secs_f64(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_run_everything_for_five_rounds() {
        let options = parse(&[]).unwrap();
        assert_eq!(options.rounds, 5);
        assert_eq!(options.lock_window, Duration::from_secs(10));
        assert_eq!(options.sections, Section::ALL.to_vec());
        assert_eq!(options.lock_clients, [1, 2, 5, 10]);
        assert!(options.out.is_none());
        let command = if cfg!(feature = "redis-2") {
            "cargo run --release -p redis-script-benches --no-default-features --features redis-2"
        } else {
            "cargo run --release -p redis-script-benches"
        };
        assert_eq!(options.command_line(), command);
    }

    #[test]
    fn options_are_read_and_echoed() {
        let options = parse(&[
            "--rounds",
            "7",
            "--lock-seconds",
            "2.5",
            "--skip-build-cost",
            "--only",
            "lock,build,pipelines",
        ])
        .unwrap();
        assert_eq!(options.rounds, 7);
        assert_eq!(options.lock_window, Duration::from_millis(2500));
        assert_eq!(options.sections, [Section::Pipelines, Section::Lock]);
        assert!(options.command_line().ends_with(
            "-- --rounds 7 --lock-seconds 2.5 --skip-build-cost --only lock,build,pipelines"
        ));
    }

    #[test]
    fn the_observe_section_runs_alone_or_with_the_others() {
        let options = parse(&["--quick", "--only", "observe"]).unwrap();
        assert_eq!(options.sections, [Section::Observe]);
        let options = parse(&["--only", "sequential,observe"]).unwrap();
        assert_eq!(options.sections, [Section::Sequential, Section::Observe]);
        assert!(parse(&["--observe-worker", "6379"]).is_err());
    }

    #[test]
    fn the_scale_or_build_section_alone_replaces_its_part_of_the_report() {
        let options = parse(&["--only", "scale"]).unwrap();
        assert_eq!(options.sections, [Section::Scale]);
        assert_eq!(options.section_alone(), Some(Section::Scale));
        let options = parse(&["--only", "build"]).unwrap();
        assert_eq!(options.section_alone(), Some(Section::Build));
        assert_eq!(
            parse(&["--only", "scale,lint"]).unwrap().section_alone(),
            None
        );
        assert_eq!(parse(&["--only", "lock"]).unwrap().section_alone(), None);
        assert_eq!(parse(&[]).unwrap().section_alone(), None);
    }

    #[test]
    fn quick_is_small_but_explicit_options_win() {
        let options = parse(&["--rounds", "3", "--quick"]).unwrap();
        assert!(options.quick);
        assert_eq!(options.rounds, 3);
        assert!(options.runs(Section::Build));
        assert_eq!(options.build_runs, 1);
        assert_eq!(options.build_bindings, QUICK_BUILD_BINDINGS);
        assert!(!options.clean_builds);
        let quick_usage = format!("{} bindings", QUICK_BUILD_BINDINGS);
        assert!(USAGE.contains(&quick_usage));
        assert!(!parse(&[]).unwrap().quick);
        assert!(parse(&[]).unwrap().clean_builds);
        assert!(options.runs(Section::Observe));
        assert!(options.out.unwrap().ends_with("target/benchmarks-quick"));
    }

    #[test]
    fn mistakes_are_reported() {
        assert!(
            parse(&["--rounds", "0"])
                .unwrap_err()
                .contains("at least 1")
        );
        assert!(parse(&["--rounds"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["--only", "locks"]).unwrap_err().contains("`locks`"));
        assert!(parse(&["--fast"]).unwrap_err().contains("unknown option"));
        assert!(parse(&["--lock-seconds", "-1"]).is_err());
    }
}
