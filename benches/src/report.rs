//! BENCHMARKS.md and the plots, from one run's results: the title, the
//! run's setting and the targets table, then each section's part in order
//! (which each section's module writes, see part.rs), then the method.

use std::fmt::Write as _;
use std::path::Path;

use crate::markdown::{table_head, table_row};
use crate::part::{Part, Plot};
use crate::run::Run;
use crate::section::Section;

/// The order of the targets table's rows, by the section each comes from.
const TARGETS_ORDER: [Section; 12] = [
    Section::Sequential,
    Section::Allocations,
    Section::Pipelines,
    Section::Async,
    Section::Observe,
    Section::Noscript,
    Section::Lock,
    Section::Build,
    Section::Lint,
    Section::Scale,
    Section::Editor,
    Section::TestServers,
];

/// Writes the report of `run`, whose sections gave `parts`, to `markdown`
/// and the plots into `plots`; `plots_link` is the plots' directory as the
/// report links it.
pub fn write(
    run: &Run,
    parts: &[Box<dyn Part>],
    markdown: &Path,
    plots: &Path,
    plots_link: &str,
) -> std::io::Result<()> {
    std::fs::create_dir_all(plots)?;
    let drawn: Vec<(Section, Plot)> = parts
        .iter()
        .filter_map(|part| Some((part.section(), part.plot(run)?)))
        .collect();
    for (_, plot) in &drawn {
        std::fs::write(plots.join(plot.file), &plot.svg)?;
    }
    if let Some(parent) = markdown.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let report = Report {
        run,
        parts,
        plots: &drawn,
        plots_link,
    };
    if let Some(alone) = run.options.section_alone()
        && let Ok(existing) = std::fs::read_to_string(markdown)
        && existing.starts_with("# Benchmarks")
    {
        let mut section = String::new();
        report.section(&mut section, alone);
        return std::fs::write(markdown, splice(&existing, alone.heading(), &section));
    }
    std::fs::write(markdown, report.text())
}

/// `report` with the section that starts with the line `heading` replaced
/// by `section` (which starts with it too); a report without it gets it
/// before its last section, the method.
fn splice(report: &str, heading: &str, section: &str) -> String {
    let starts = |at: usize| report[at..].starts_with(heading) && report[..at].ends_with('\n');
    let start = report
        .match_indices(heading)
        .map(|(at, _)| at)
        .find(|&at| starts(at));
    let (start, end) = match start {
        Some(start) => {
            let after = start + heading.len();
            let end = report[after..]
                .find("\n## ")
                .map_or(report.len(), |at| after + at + 1);
            (start, end)
        }
        None => {
            let at = report.rfind("\n## ").map_or(report.len(), |at| at + 1);
            (at, at)
        }
    };
    format!("{}{section}{}", &report[..start], &report[end..])
}

/// What the report is written from.
struct Report<'a> {
    run: &'a Run<'a>,
    parts: &'a [Box<dyn Part>],
    /// The plots written, by the section they are of.
    plots: &'a [(Section, Plot)],
    plots_link: &'a str,
}

impl Report<'_> {
    fn part(&self, section: Section) -> Option<&dyn Part> {
        self.parts
            .iter()
            .find(|part| part.section() == section)
            .map(|part| &**part)
    }

    /// The whole report.
    fn text(&self) -> String {
        let mut md = String::new();
        self.setting(&mut md);
        self.targets(&mut md);
        for section in Section::ALL {
            self.section(&mut md, section);
        }
        method(&mut md);
        md
    }

    /// The title, how to rerun it, and what this run was.
    fn setting(&self, md: &mut String) {
        let run = self.run;
        let o = run.options;
        let _ = writeln!(md, "# Benchmarks\n");
        let _ = writeln!(
            md,
            "Written by the benchmark harness (`benches/`, package `redis-script-benches`); \
         every figure below comes from one run of it. Do not edit by hand: rerun it.\n"
        );
        let _ = writeln!(md, "```sh\n{}\n```\n", o.command_line());
        let _ = writeln!(
            md,
            "Without options it runs every section: 5 rounds, 10 s lock windows, the build \
         timings. `--quick` is a smoke run of a minute or two, written to `target/`; `--help` \
         lists the options.\n"
        );
        let _ = writeln!(md, "## This run\n");
        let m = &run.machine;
        let _ = writeln!(
            md,
            "- Started {} and took {:.1} min, at commit {}.",
            run.started,
            run.elapsed.as_secs_f64() / 60.0,
            run.commit
        );
        let _ = writeln!(md, "- Machine: {} ({} logical CPUs).", m.cpu_model, m.cpus);
        let _ = writeln!(
            md,
            "- Load average (1, 5, 15 min) at the start: {}; at the end: {}. The machine is shared: \
         a load near or above the CPU count means other work competed with this run.",
            m.load_start, m.load_end
        );
        let _ = writeln!(
            md,
            "- Pinning: redis-server may run on CPU {}; the harness and every client (threads, \
         Python processes, redis-benchmark) on CPU {} (as `/proc/<pid>/status` lists them \
         after pinning).",
            m.server_cpus, m.client_cpus
        );
        let python = m.python.as_deref().unwrap_or("Python not run");
        let _ = writeln!(
            md,
            "- Versions: {}; {}; redis-rs {}; {} (redis-py installed by the harness into \
         `target/bench-python/`).",
            m.rustc, m.redis_server, m.redis_rs, python
        );
        let _ = writeln!(
            md,
            "- Rounds: {}. In the sequential, pipeline, async and observability comparisons a \
         round gives each variant {:.1} s, in {} pieces taken in turns; in the lock \
         benchmark, one {:.1} s window per variant and client count. Figures are medians over the rounds with the \
         range (min–max) in parentheses; ratios are taken round by round, then the median.\n",
            o.rounds,
            o.slice.as_secs_f64(),
            crate::measure::PIECES,
            o.lock_window.as_secs_f64()
        );
    }

    /// The targets, each section's rows in [`TARGETS_ORDER`].
    fn targets(&self, md: &mut String) {
        let _ = writeln!(md, "## Targets\n");
        table_head(md, ["target", "goal", "measured", "verdict"]);
        for section in TARGETS_ORDER {
            for target in self.part(section).map(Part::targets).unwrap_or_default() {
                table_row(
                    md,
                    [
                        target.what.as_str(),
                        target.goal,
                        &target.measured,
                        target.verdict,
                    ],
                );
            }
        }
        let _ = writeln!(md);
    }

    /// A section's heading, then its part and its plot, or that it did not run.
    fn section(&self, md: &mut String, section: Section) {
        let _ = writeln!(md, "{}", section.heading());
        if !self.run.options.runs(section) {
            let _ = writeln!(md, "Not run (`{}`).\n", self.run.options.command_line());
            return;
        }
        let Some(part) = self.part(section) else {
            return;
        };
        part.write(md, self.run);
        for (_, plot) in self.plots.iter().filter(|(of, _)| *of == section) {
            let _ = writeln!(md, "![{}]({}/{})\n", plot.alt, self.plots_link, plot.file);
        }
    }
}

fn method(md: &mut String) {
    let _ = writeln!(md, "## How it is measured\n");
    let _ = writeln!(
        md,
        "- The harness starts its own `redis-server` (the test suite's throwaway server, \
         `REDIS_SCRIPT_SERVER` chooses the binary) and moves all its threads to one CPU with \
         `taskset`, and pins itself to another before starting any thread or process, so \
         every client inherits that CPU. On this machine a round trip flips between about \
         23 µs (server and client on one CPU) and 58 µs (on two) when the kernel is left to \
         choose; pinned, it stays on one of them.\n\
         - Every comparison runs its variants in turns, each for the same time, in an order \
         that rotates from turn to turn: the sequential, pipeline and async comparisons in \
         short pieces (a tenth of a slice), so that a burst of other work on the shared \
         machine falls on every variant alike; the lock benchmark in whole windows, as the \
         reference figures were taken. Ratios are per round, then the median.\n\
         - Sequential, async and pipelined runs call the same script on the same key: \
         `INCR`, so the server's work is the same for every variant and only the client \
         differs.\n\
         - Allocation counts come from a counting global allocator that counts only while \
         a measured loop runs, on its own thread.\n\
         - The observability comparison runs builds of the harness with other features as \
         worker processes (built before anything is pinned, started after, so they inherit \
         the client CPU); the harness sends each a line asking for a piece and waits for \
         the reply, so only one process calls the server at a time.\n\
         - Build timings run before the server starts, unpinned, on every CPU."
    );
}

#[cfg(test)]
mod snapshot;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_replaces_its_own_text_or_comes_before_the_method() {
        let report = "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nold\n\n\
                      ## How it is measured\n\nm\n";
        let section = "## Analysis at scale\n\nnew\n\n";
        let heading = Section::Scale.heading();
        assert_eq!(
            splice(report, heading, section),
            "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nnew\n\n\
             ## How it is measured\n\nm\n"
        );
        let without = "# Benchmarks\n\n## A\n\na\n\n## How it is measured\n\nm\n";
        assert_eq!(
            splice(without, heading, section),
            "# Benchmarks\n\n## A\n\na\n\n## Analysis at scale\n\nnew\n\n\
             ## How it is measured\n\nm\n"
        );
        // The last section replaced runs to the end of the report.
        let last = "# Benchmarks\n\n## Analysis at scale\n\nold\n";
        assert_eq!(
            splice(last, heading, section),
            "# Benchmarks\n\n## Analysis at scale\n\nnew\n\n"
        );
    }
}
