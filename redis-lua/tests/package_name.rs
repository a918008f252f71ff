//! The package's name is one name on crates.io, PyPI and npm
//! (`redis-lua-lint`; `redis-lua` is other projects' name there), and every
//! install line of the docs names it: an install line that names another
//! package would install someone else's code.

use std::path::{Path, PathBuf};

/// The name the registries know the tool by.
const PACKAGE: &str = env!("CARGO_PKG_NAME");

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("redis-lua/ is in the repository")
        .to_path_buf()
}

fn read(relative: &str) -> String {
    let path = repository().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_crate_and_the_wheel_have_one_name() {
    assert_eq!(PACKAGE, "redis-lua-lint");
    let pyproject = read("pyproject.toml");
    let name = pyproject
        .lines()
        .find_map(|line| line.strip_prefix("name = "))
        .expect("pyproject.toml names its project");
    assert_eq!(name.trim_matches('"'), PACKAGE);
    // The npm packages take the crate's name (packaging/npm/build.mjs).
    assert!(read("packaging/npm/build.mjs").contains("name: crate.name"));
}

/// The package an install line installs: the word after `install` (or the
/// one-off runners' package), skipping options.
fn installed(line: &str) -> Option<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|word| {
        matches!(*word, "install" | "npx" | "uvx" | "--from") && !line.contains("--path")
    })?;
    words[at + 1..]
        .iter()
        .copied()
        .find(|word| !word.starts_with('-') && *word != "--git")
        .map(|word| word.trim_matches('`'))
}

#[test]
fn every_install_line_of_the_docs_names_the_package() {
    let mut checked = 0;
    for doc in [
        "README.md",
        "redis-lua/README.md",
        "docs/guide/redis_lua.md",
    ] {
        for line in read(doc).lines() {
            let line = line.split('#').next().unwrap_or_default();
            let installer = [
                "cargo install",
                "pip install",
                "pipx install",
                "npm install",
                "uvx ",
                "npx redis-lua-lint",
            ]
            .iter()
            .any(|installer| line.contains(installer));
            if !installer || line.contains("--path") || line.contains("--git") {
                continue;
            }
            let Some(package) = installed(line) else {
                continue;
            };
            if package.starts_with("git+") || package.ends_with(".whl") || package.ends_with(".tgz")
            {
                continue;
            }
            assert!(
                package == PACKAGE || package.starts_with(&format!("{PACKAGE}==")),
                "{doc}: `{}` installs `{package}`, not {PACKAGE}",
                line.trim()
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} install lines");
}
