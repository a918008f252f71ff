//! Reading the Lua file named by `file = "..."`, and the files it includes.

use std::path::{Path, PathBuf};

use redis_script_analyzer::Span;
use redis_script_analyzer::compose::{self, Composed};
use syn::LitStr;

/// A script read at compile time.
pub struct ScriptFile {
    /// The canonical absolute path; the expansion `include_str!`s it, which
    /// is what makes Cargo rebuild the crate when the file changes.
    pub path: PathBuf,
    /// The source, byte for byte as it will be sent: the file with its
    /// `--- @include` lines replaced by the included files.
    pub source: String,
    /// Lowercase hex SHA1 of `source`, as Redis computes it.
    pub sha1: String,
    /// The files `source` is made of, and where each part of it comes from.
    pub composed: Composed,
}

impl ScriptFile {
    /// Reads `lit`'s path relative to the manifest directory of the crate
    /// being compiled, with every error pointing at the literal.
    pub fn read(lit: &LitStr) -> syn::Result<ScriptFile> {
        let (relative, resolved) = resolve(
            lit,
            "the script path",
            "the Lua file",
            "file = \"scripts/lock_acquire.lua\"",
        )?;
        let bytes = std::fs::read(&resolved).map_err(|error| {
            let looked_for = real_path(&resolved);
            let looked_for = looked_for.display();
            let message = if resolved.is_dir() {
                format!(
                    "the script path `{relative}` is a directory: name the Lua file in it, \
                     e.g. `{}/<name>.lua`\n\
                     looked for: {looked_for}",
                    relative.trim_end_matches(['/', '\\']),
                )
            } else {
                let reason = match error.kind() {
                    std::io::ErrorKind::NotFound => "no such file".to_owned(),
                    _ => error.to_string(),
                };
                format!(
                    "cannot read Lua script `{relative}`: {reason}\n\
                     looked for: {looked_for}\n\
                     help: the path is relative to the directory of the crate's Cargo.toml"
                )
            };
            syn::Error::new_spanned(lit, message)
        })?;
        let source = String::from_utf8(bytes).map_err(|error| {
            let (line, column) = line_and_column(error.as_bytes(), error.utf8_error().valid_up_to());
            syn::Error::new_spanned(
                lit,
                format!(
                    "Lua script `{relative}` is not valid UTF-8 (first bad byte at {relative}:{line}:{column}): \
                     save it as UTF-8; binary data belongs in ARGV, not in the source"
                ),
            )
        })?;
        let path = resolved.canonicalize().unwrap_or(resolved);
        // The runtime holds a script as `&'static str`: an included file
        // must be UTF-8 too.
        let composed = compose::compose(&relative, &path, source, &mut |included| {
            let bytes = std::fs::read(included)?;
            match std::str::from_utf8(&bytes) {
                Ok(_) => Ok(bytes),
                Err(_) => Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "it is not valid UTF-8 (save it as UTF-8; binary data belongs in ARGV, \
                     not in the source)",
                )),
            }
        })
        .map_err(|error| syn::Error::new_spanned(lit, error.render()))?;
        let source = String::from_utf8(composed.text.clone()).expect("every file read is UTF-8");
        let sha1 = sha1_smol::Sha1::from(source.as_bytes())
            .digest()
            .to_string();
        Ok(ScriptFile {
            path,
            source,
            sha1,
            composed,
        })
    }

    /// The script file's own text, without its includes.
    pub fn own_source(&self) -> &str {
        std::str::from_utf8(&self.composed.files[0].source).expect("every file read is UTF-8")
    }

    /// The canonical paths of the files it includes, for rebuild tracking.
    pub fn included_paths(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.composed.files[1..].iter().map(|file| {
            file.path
                .canonicalize()
                .unwrap_or_else(|_| file.path.clone())
        })
    }

    /// The script file as its attribute names it.
    pub fn display(&self) -> &str {
        &self.composed.files[0].display
    }

    /// Where `span` of [`source`](Self::source) is: the file (an included
    /// one, if the text is there), its line and column, 1-based.
    pub fn position(&self, span: Span) -> (&str, usize, usize) {
        let (file, span) = self.composed.locate(span);
        let (line, column, _) = redis_script_analyzer::report::locate(&file.source, span.start);
        (&file.display, line, column)
    }

    /// A finding at `span` of [`source`](Self::source), shown in the file
    /// and at the line where its text really is; in an included file, with
    /// the includes that brought the file in.
    pub fn render(&self, span: Span, message: &str, note: Option<&str>) -> String {
        self.composed.render(span, message, note)
    }
}

/// `lit`'s path, relative to the manifest directory of the crate being
/// compiled, resolved there; `what`, `object` and `example` word the errors.
fn resolve(
    lit: &LitStr,
    what: &str,
    object: &str,
    example: &str,
) -> syn::Result<(String, PathBuf)> {
    let relative = lit.value();
    if relative.is_empty() {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "{what} is empty: name {object} relative to the crate's Cargo.toml, e.g. `{example}`"
            ),
        ));
    }
    if Path::new(&relative).is_absolute() {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "{what} is absolute, so the crate builds only on this machine: write it \
                 relative to the crate's Cargo.toml, e.g. `{example}`"
            ),
        ));
    }
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
        syn::Error::new_spanned(lit, "CARGO_MANIFEST_DIR is not set: build with cargo")
    })?;
    let resolved = Path::new(&manifest_dir).join(&relative);
    Ok((relative, resolved))
}

/// The `.lua` files of the folder `lit` names (not of its subfolders),
/// sorted by name, each as a path relative to the folder.
pub fn resolve_dir(lit: &LitStr) -> syn::Result<Vec<PathBuf>> {
    let (relative, resolved) = resolve(
        lit,
        "the folder path",
        "the folder",
        "scripts!(\"scripts/lock\")",
    )?;
    let entries = std::fs::read_dir(&resolved).map_err(|error| {
        let reason = match error.kind() {
            std::io::ErrorKind::NotFound => "no such folder".to_owned(),
            _ => error.to_string(),
        };
        syn::Error::new_spanned(
            lit,
            format!(
                "cannot read the folder `{relative}`: {reason}\n\
                 looked for: {}\n\
                 help: the path is relative to the directory of the crate's Cargo.toml",
                real_path(&resolved).display()
            ),
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| PathBuf::from(entry.file_name()))
        .filter(|name| name.extension().is_some_and(|ext| ext == "lua"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(syn::Error::new_spanned(
            lit,
            format!("the folder `{relative}` holds no `.lua` file to bind"),
        ));
    }
    Ok(files)
}

/// `path` with its longest existing ancestor made canonical: where the
/// compiler really looked, with symlinks and `..` resolved, even when the
/// file itself is missing.
fn real_path(path: &Path) -> PathBuf {
    path.ancestors()
        .find_map(|ancestor| {
            let rest = path.strip_prefix(ancestor).ok()?;
            let real = ancestor.canonicalize().ok()?;
            // `join("")` would add a trailing separator.
            Some(if rest.as_os_str().is_empty() {
                real
            } else {
                real.join(rest)
            })
        })
        .unwrap_or_else(|| path.to_path_buf())
}

/// 1-based line and column (in characters of the line as shown) of
/// `offset` in `bytes`.
fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    // Lines as the server numbers them (a bare `\r` ends one too).
    let (line, column, _) = redis_script_analyzer::report::locate(bytes, offset);
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::line_and_column;

    #[test]
    fn positions_are_one_based() {
        assert_eq!(line_and_column(b"ab\ncd\xff", 5), (2, 3));
        assert_eq!(line_and_column(b"\xff", 0), (1, 1));
        assert_eq!(line_and_column(b"a\rb\r\n\xff", 5), (3, 1));
    }
}
