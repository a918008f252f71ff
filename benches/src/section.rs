//! The sections of a run: the name `--only` takes for each, and its heading
//! in the report.

/// The sections, in the report's order (main.rs runs them in its own: the
/// builds first, before anything is pinned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Sequential,
    Allocations,
    Noscript,
    Pipelines,
    Async,
    Observe,
    Lock,
    Build,
    Lint,
    Scale,
    Editor,
    TestServers,
}

impl Section {
    pub const ALL: [Section; 12] = [
        Section::Sequential,
        Section::Allocations,
        Section::Noscript,
        Section::Pipelines,
        Section::Async,
        Section::Observe,
        Section::Lock,
        Section::Build,
        Section::Lint,
        Section::Scale,
        Section::Editor,
        Section::TestServers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Sequential => "sequential",
            Section::Allocations => "allocations",
            Section::Noscript => "noscript",
            Section::Pipelines => "pipelines",
            Section::Async => "async",
            Section::Observe => "observe",
            Section::Lock => "lock",
            Section::Build => "build",
            Section::Lint => "lint",
            Section::Scale => "scale",
            Section::Editor => "editor",
            Section::TestServers => "test-servers",
        }
    }

    /// Its heading line in the report, newline included: a run of the
    /// section alone finds its part of the existing report by it.
    pub fn heading(self) -> &'static str {
        match self {
            Section::Sequential => "## Sequential calls on one connection\n",
            Section::Allocations => "## Heap allocations per call\n",
            Section::Noscript => "## Recovery from NOSCRIPT\n",
            Section::Pipelines => "## Pipelines\n",
            Section::Async => "## Async calls\n",
            Section::Observe => "## Observability: the cost of counters, spans and metrics\n",
            Section::Lock => "## A Lua lock against a WATCH lock\n",
            Section::Build => "## What the macro costs at build time\n",
            Section::Lint => "## `redis-lua check` on BullMQ's commands\n",
            Section::Scale => "## Analysis at scale\n",
            Section::Editor => "## The language server as you type\n",
            Section::TestServers => "## What a test pays for a server of its own\n",
        }
    }
}
