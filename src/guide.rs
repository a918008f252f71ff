// The guide: one chapter per module, each the text of a Markdown file in
// `docs/guide/`, which GitHub shows as it is.
//
// The chapters link to each other with reference links (`[text][faults]`)
// whose definitions, at the end of each file, name the other files
// (`[faults]: faults.md`) for GitHub. Rustdoc reads the definitions of
// `guide_links!` (in lib.rs) first, and in Markdown the first definition
// of a label wins, so on docs.rs the same labels are intra-doc links to the
// chapters' modules.

// A build script's `fn main` (lua.md) is what that example shows.
#![allow(clippy::needless_doctest_main)]

/// A chapter: a doc-only module whose documentation is `$file`.
macro_rules! chapter {
    ($name:ident, $file:literal) => {
        #[doc = guide_links!()]
        #[doc = include_str!($file)]
        pub mod $name {}
    };
}

chapter!(checks, "../docs/guide/checks.md");
chapter!(calling, "../docs/guide/calling.md");
chapter!(parameters, "../docs/guide/parameters.md");
chapter!(recipes, "../docs/guide/recipes.md");
chapter!(lua, "../docs/guide/lua.md");
chapter!(where_it_runs, "../docs/guide/where_it_runs.md");
chapter!(faults, "../docs/guide/faults.md");
chapter!(observability, "../docs/guide/observability.md");
chapter!(redis_lua, "../docs/guide/redis_lua.md");
chapter!(redis_rs, "../docs/guide/redis_rs.md");
// Documented always; its example is a doc test only with the feature,
// which it needs.
#[cfg(any(feature = "fred", all(doc, not(doctest))))]
chapter!(fred, "../docs/guide/fred.md");
chapter!(security, "../docs/guide/security.md");
chapter!(testing_scripts, "../docs/guide/testing_scripts.md");
chapter!(testing, "../docs/guide/testing.md");
