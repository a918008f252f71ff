//! Scripts composed from shared Lua files, in the convention BullMQ's
//! scripts use: a line
//!
//! ```lua
//! --- @include "includes/addJob"
//! ```
//!
//! is replaced by the text of that file, resolved relative to the file the
//! line is in, `.lua` added when the path has no extension. Included files
//! may include others. Each file is included at most once per script: a
//! later include of a file already included is replaced by nothing, so two
//! helpers may both include a third. Including a file that is being
//! included (a cycle) is an error. A directive is a whole line: two or
//! three dashes, blanks, `@include`, blanks, the path in double or single
//! quotes, then at most blanks or `;`. Paths are plain (no globs); a line
//! that looks like a directive but is not one, an absolute path, a missing
//! file or one with a `#!` shebang (only the script itself may have one)
//! are errors. Files are bytes, as the server reads a script: one that is
//! not UTF-8 is included as it is, and lines end as Lua ends them (`\n`,
//! `\r`, `\r\n` or `\n\r`).
//!
//! [`compose`] returns the composed text, which is what a script sends and
//! what its SHA1 is of, with the map back to each file ([`Composed::locate`])
//! so that findings on the composed text are shown in the file, and at the
//! line, where the text really is.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::report::Style;
use crate::syntax::tree::Span;
use crate::text;

pub use crate::sources::{SourceFile, SourceFiles};

/// A composed script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    /// The text sent to the server, byte for byte.
    pub text: Vec<u8>,
    /// Every file the text is made of, the script first, then each included
    /// file in the order it was first included.
    pub files: SourceFiles,
    /// Where each run of the text comes from, in order of the text.
    pieces: Vec<Piece>,
}

/// A run of the composed text copied from one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    /// Where it starts in the composed text.
    at: usize,
    len: usize,
    file: usize,
    /// Where it starts in that file.
    from: usize,
}

/// A composition that failed: the file and span of the offending directive
/// (or of the file's first line), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposeError {
    /// The files read before the error, the script first, each with the
    /// include that brought it in.
    pub files: SourceFiles,
    /// The index in `files` of the file the error is in.
    pub file: usize,
    /// The offending line.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub note: Option<String>,
    /// The files the includes reached before the error (paths as read, the
    /// script not counted): fragments still, though the script failed.
    pub reached: Vec<PathBuf>,
}

impl ComposeError {
    /// The file the error is in.
    pub fn source_file(&self) -> &SourceFile {
        &self.files[self.file]
    }

    /// The error as a finding is shown ([`crate::report::render`]), in the
    /// file that holds the offending directive.
    pub fn render(&self) -> String {
        let file = self.source_file();
        crate::report::render(
            &file.display,
            &file.source,
            self.span,
            &self.message,
            self.note.as_deref(),
        )
    }
}

impl Composed {
    /// Whether the script includes anything.
    pub fn has_includes(&self) -> bool {
        self.files.len() > 1
    }

    /// The file and the span in it of `span` of the composed text: where a
    /// finding really is. A span that crosses from one file into another is
    /// cut at the end of the first.
    pub fn locate(&self, span: Span) -> (&SourceFile, Span) {
        let index = self
            .pieces
            .partition_point(|piece| piece.at + piece.len <= span.start)
            .min(self.pieces.len().saturating_sub(1));
        let Some(piece) = self.pieces.get(index) else {
            return (&self.files[0], span);
        };
        let start = span.start.saturating_sub(piece.at).min(piece.len) + piece.from;
        let end = span.end.min(piece.at + piece.len).saturating_sub(piece.at) + piece.from;
        (&self.files[piece.file], Span::new(start, end.max(start)))
    }

    /// As [`Composed::locate`], for a span the edit of a fix replaces: `None`
    /// when it crosses from one file into another (or into an include),
    /// which no edit of one file can replace. An empty span between two
    /// runs of text is placed at the start of the second.
    pub fn locate_exact(&self, span: Span) -> Option<(&SourceFile, Span)> {
        let index = self
            .pieces
            .partition_point(|piece| piece.at + piece.len <= span.start)
            .min(self.pieces.len().saturating_sub(1));
        let Some(piece) = self.pieces.get(index) else {
            return Some((&self.files[0], span));
        };
        let inside = piece.at <= span.start && span.start <= span.end;
        (inside && span.end <= piece.at + piece.len).then(|| {
            let start = span.start - piece.at + piece.from;
            let end = span.end - piece.at + piece.from;
            (&self.files[piece.file], Span::new(start, end))
        })
    }

    /// A finding at `span` of [`text`](Self::text), rendered
    /// ([`crate::report::render`]) in the file and at the line where its
    /// text really is; in an included file, followed by the includes that
    /// brought the file in (`= included from scripts/x.lua:3`).
    pub fn render(&self, span: Span, message: &str, note: Option<&str>) -> String {
        let (file, file_span) = self.locate(span);
        self.files
            .snippet(self.files.index_of(file), file_span, message)
            .note(note)
            .render(Style::Macro)
    }
}

/// Composes the script `display` (read from `path`, whose text is
/// `source`: a `String` or bytes), reading included files with `read`.
///
/// Linear in the composed text: each file is scanned once, and a path is
/// looked up among the files read and the files open in a map, not a list,
/// so a long chain of includes costs no more per file than a short one.
/// The expansion keeps its own stack rather than recursing, so a chain of
/// any depth composes on any thread's stack.
pub fn compose(
    display: &str,
    path: &Path,
    source: impl Into<Vec<u8>>,
    read: &mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
) -> Result<Composed, Box<ComposeError>> {
    let source = source.into();
    // Lexically, as included files' paths are: an include back to the
    // script is then a cycle, whatever `..` its path took.
    let path = normalize(path);
    let text = Vec::with_capacity(source.len());
    let mut files = SourceFiles::default();
    files.push(SourceFile {
        display: display.to_owned(),
        path: path.clone(),
        source,
        included_from: None,
    });
    let mut composer = Composer {
        composed: Composed {
            text,
            files,
            pieces: Vec::new(),
        },
        stack: Vec::new(),
        known: HashMap::from([(path.clone(), 0)]),
        open: HashMap::new(),
        read,
    };
    composer.open(0);
    composer.run()?;
    Ok(composer.composed)
}

struct Composer<'r> {
    composed: Composed,
    /// The files being expanded, outermost first: a cycle is an include of one of them.
    stack: Vec<Frame>,
    /// Every file read, by path: its index in `composed.files`.
    known: HashMap<PathBuf, usize>,
    /// The files on `stack`, by path: their depth in it.
    open: HashMap<PathBuf, usize>,
    read: &'r mut dyn FnMut(&Path) -> std::io::Result<Vec<u8>>,
}

/// A file being expanded.
struct Frame {
    file: usize,
    /// Where the next line to read starts in the file.
    at: usize,
    /// How much of the file is in the text (up to the last directive).
    copied_to: usize,
    /// The length of the text when the file started: whether it added any.
    text_before: usize,
}

/// A directive line found in a file.
struct Found {
    /// The line, without its line ending.
    span: Span,
    /// Where the next line starts.
    next: usize,
    /// The path it names, or why it does not parse.
    target: Result<String, (String, Option<String>)>,
}

impl Composer<'_> {
    /// Starts expanding file `index`.
    fn open(&mut self, index: usize) {
        let path = self.composed.files[index].path.clone();
        self.open.insert(path, self.stack.len());
        self.stack.push(Frame {
            file: index,
            at: 0,
            copied_to: 0,
            text_before: self.composed.text.len(),
        });
    }

    /// Expands the files on the stack until none is left.
    fn run(&mut self) -> Result<(), Box<ComposeError>> {
        while let Some(frame) = self.stack.last() {
            let (index, at) = (frame.file, frame.at);
            let Some(found) = next_directive(&self.composed.files[index].source, at) else {
                self.close();
                continue;
            };
            let frame = self.stack.last_mut().expect("the frame just read");
            frame.at = found.next;
            let copied_to = std::mem::replace(&mut frame.copied_to, found.span.end);
            let target = found
                .target
                .map_err(|(message, note)| self.error(index, found.span, message, note))?;
            self.copy(index, copied_to, found.span.start);
            if let Some(included) = self.include(index, found.span, &target)? {
                self.open(included);
            }
        }
        Ok(())
    }

    /// Copies the rest of the innermost file, and closes it.
    fn close(&mut self) {
        let frame = self.stack.pop().expect("a file is open");
        let file = &self.composed.files[frame.file];
        let (len, path) = (file.source.len(), file.path.clone());
        self.copy(frame.file, frame.copied_to, len);
        self.open.remove(&path);
        // The directive's line break follows: an included file's last one
        // would leave an empty line.
        if !self.stack.is_empty() && self.composed.text.len() > frame.text_before {
            self.drop_final_line_break();
        }
    }

    /// Appends `from..to` of file `index` to the text.
    fn copy(&mut self, index: usize, from: usize, to: usize) {
        if from >= to {
            return;
        }
        let text = &self.composed.files[index].source[from..to];
        self.composed.pieces.push(Piece {
            at: self.composed.text.len(),
            len: to - from,
            file: index,
            from,
        });
        self.composed.text.extend_from_slice(text);
    }

    /// Reads the file the directive at `span` of file `includer` names
    /// (`target`): the index of the file to expand there, or `None` for a
    /// file already included.
    fn include(
        &mut self,
        includer: usize,
        span: Span,
        target: &str,
    ) -> Result<Option<usize>, Box<ComposeError>> {
        let including = &self.composed.files[includer];
        if Path::new(target).is_absolute() {
            return Err(self.error(
                includer,
                span,
                format!("the include path `{target}` is absolute"),
                Some("write it relative to the including file's folder".to_owned()),
            ));
        }
        let path = resolve(&including.path, target);
        let display = resolve(Path::new(&including.display), target)
            .to_string_lossy()
            .replace('\\', "/");
        if let Some(&open) = self.open.get(&path) {
            let mut chain: Vec<&str> = self.stack[open..]
                .iter()
                .map(|frame| self.composed.files[frame.file].display.as_str())
                .collect();
            chain.push(&display);
            return Err(self.error(
                includer,
                span,
                format!("include cycle: {}", chain.join(" -> ")),
                Some("a file cannot include itself, directly or through others: move what both need into a third file".to_owned()),
            ));
        }
        if self.known.contains_key(&path) {
            // Included once per script: a later include adds nothing.
            return Ok(None);
        }
        let bytes = (self.read)(&path).map_err(|error| {
            let reason = match error.kind() {
                std::io::ErrorKind::NotFound => "no such file".to_owned(),
                _ => error.to_string(),
            };
            self.error(
                includer,
                span,
                format!("cannot include `{display}`: {reason}"),
                Some(format!(
                    "looked for {}; the path is relative to the folder of `{}`",
                    path.display(),
                    self.composed.files[includer].display
                )),
            )
        })?;
        let source = bytes;
        if source.starts_with(b"#!") {
            return Err(self.error(
                includer,
                span,
                format!(
                    "`{display}` starts with a `#!` shebang, which only the script itself may have"
                ),
                Some("remove the shebang line from the included file".to_owned()),
            ));
        }
        let index = self.composed.files.len();
        self.known.insert(path.clone(), index);
        self.composed.files.push(SourceFile {
            display,
            path,
            source,
            included_from: Some((includer, span)),
        });
        Ok(Some(index))
    }

    /// Removes a line ending (as Lua reads them) that ends the text, when
    /// the last piece holds all of it.
    fn drop_final_line_break(&mut self) {
        let Some(piece) = self.composed.pieces.last_mut() else {
            return;
        };
        let text = &self.composed.text[piece.at..];
        // Only the trailing run of `\n` and `\r` decides the last line
        // ending (a line ending starts where the run does): the piece is
        // not read again each time a file closes on it.
        let run = text
            .iter()
            .rev()
            .take_while(|&&byte| byte == b'\n' || byte == b'\r')
            .count();
        let width = text::lines(&text[text.len() - run..])
            .last()
            .map_or(0, |line| (line.next - line.end).min(piece.len));
        piece.len -= width;
        let len = self.composed.text.len() - width;
        self.composed.text.truncate(len);
        if piece.len == 0 {
            self.composed.pieces.pop();
        }
    }

    /// The error, with the files read so far: the composition ends here.
    fn error(
        &mut self,
        file: usize,
        span: Span,
        message: String,
        note: Option<String>,
    ) -> Box<ComposeError> {
        let reached = self.composed.files[1..]
            .iter()
            .map(|file| file.path.clone())
            .collect();
        Box::new(ComposeError {
            files: std::mem::take(&mut self.composed.files),
            file,
            span,
            message,
            note,
            reached,
        })
    }
}

/// The path the include `target` in the file at `includer` names: relative
/// to the includer's folder, `.lua` added when it has no extension.
fn resolve(includer: &Path, target: &str) -> PathBuf {
    let folder = includer.parent().map(Path::to_path_buf).unwrap_or_default();
    if Path::new(target).extension().is_some() {
        normalize(&folder.join(target))
    } else {
        normalize(&folder.join(format!("{target}.lua")))
    }
}

/// The paths the well-formed include directives of the file at `path`
/// (whose bytes are `source`) name, in order, without reading them: what
/// a caller checking many files needs to know which of them are included
/// before composing any. Absolute paths, which [`compose`] refuses, are
/// left out.
pub fn direct_includes<S: AsRef<[u8]> + ?Sized>(path: &Path, source: &S) -> Vec<PathBuf> {
    let source = source.as_ref();
    let path = normalize(path);
    let mut at = 0;
    let mut targets = Vec::new();
    while let Some(found) = next_directive(source, at) {
        at = found.next;
        if let Ok(target) = found.target
            && !Path::new(&target).is_absolute()
        {
            targets.push(resolve(&path, &target));
        }
    }
    targets
}

/// The first directive line of `source` at or after `from` (a line start),
/// its lines as Lua ends them.
fn next_directive(source: &[u8], from: usize) -> Option<Found> {
    // From a line start, the lines are those of the whole source.
    text::lines(&source[from..]).find_map(|line| {
        let (start, end) = (from + line.start, from + line.end);
        // Every directive starts with `--`: other lines are not read as text.
        if !source[start..end].starts_with(b"--") {
            return None;
        }
        let text = text::same_offsets(&source[start..end]);
        directive(&text).map(|directive| Found {
            span: Span::new(start, end),
            next: from + line.next,
            target: directive.map(str::to_owned),
        })
    })
}

/// `Some(Ok(path))` for a directive line, `Some(Err(..))` for a line that
/// starts like one but is malformed, `None` for any other line.
#[allow(clippy::type_complexity)]
fn directive(line: &str) -> Option<Result<&str, (String, Option<String>)>> {
    let rest = line.strip_prefix("--")?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix("@include")?;
    let malformed = || {
        Err((
            format!("malformed include: `{}`", line.trim()),
            Some("write the path in quotes, e.g. `--- @include \"includes/helpers\"`".to_owned()),
        ))
    };
    if !rest.starts_with([' ', '\t']) {
        return Some(malformed());
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return Some(malformed());
    };
    let inner = &rest[1..];
    let Some(end) = inner.find(quote) else {
        return Some(malformed());
    };
    let (path, after) = (&inner[..end], &inner[end + 1..]);
    if path.is_empty() || !after.chars().all(|c| matches!(c, ' ' | '\t' | ';')) {
        return Some(malformed());
    }
    Some(Ok(path))
}

/// `path` with `.` and `..` resolved lexically (an include's path is about
/// the folder named, not about symbolic links on the way).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            // `..` cancels a folder name only: a leading `..` stays (popping
            // it would drop the folder the path climbs out of), and `/..` is `/`.
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn files(list: &[(&str, &str)]) -> HashMap<PathBuf, Vec<u8>> {
        list.iter()
            .map(|(path, text)| (PathBuf::from(path), text.as_bytes().to_vec()))
            .collect()
    }

    /// Where `needle` starts in `haystack`.
    fn find(haystack: &[u8], needle: &str) -> usize {
        haystack
            .windows(needle.len())
            .position(|window| window == needle.as_bytes())
            .unwrap()
    }

    fn run(root: &str, list: &[(&str, &str)]) -> Result<Composed, Box<ComposeError>> {
        let disk = files(list);
        let source = String::from_utf8(disk[Path::new(root)].clone()).unwrap();
        let mut read = |path: &Path| {
            disk.get(path)
                .cloned()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        };
        compose(root, Path::new(root), source, &mut read)
    }

    #[test]
    fn a_script_reached_by_a_path_with_dots_is_one_file() {
        let disk = files(&[
            ("s/a.lua", "--- @include \"b\"\nreturn 1"),
            ("s/b.lua", "--- @include \"a\"\nlocal b = 1"),
        ]);
        let source = String::from_utf8(disk[Path::new("s/a.lua")].clone()).unwrap();
        let mut read = |path: &Path| {
            disk.get(path)
                .cloned()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        };
        let error = compose("s/a.lua", Path::new("s/./x/../a.lua"), source, &mut read)
            .expect_err("a cycle");
        assert!(
            error
                .message
                .starts_with("include cycle: s/a.lua -> s/b.lua -> s/a.lua"),
            "{}",
            error.message
        );
    }

    #[test]
    fn an_exact_span_stays_in_one_file() {
        let composed = run(
            "main.lua",
            &[
                (
                    "main.lua",
                    "local a = 1\n--- @include \"b\"\nreturn a + b\n",
                ),
                ("b.lua", "local b = 2\n"),
            ],
        )
        .unwrap();
        let text = &composed.text;
        assert_eq!(text, b"local a = 1\nlocal b = 2\nreturn a + b\n");
        let at = find(text, "b = 2");
        let (file, span) = composed.locate_exact(Span::new(at, at + 1)).unwrap();
        assert_eq!((file.display.as_str(), span), ("b.lua", Span::new(6, 7)));
        // Where the included text starts, an insertion is its.
        let at = find(text, "local b");
        let (file, span) = composed.locate_exact(Span::new(at, at)).unwrap();
        assert_eq!((file.display.as_str(), span.start), ("b.lua", 0));
        let at = find(text, "return");
        let (file, span) = composed.locate_exact(Span::new(at, at)).unwrap();
        assert_eq!((file.display.as_str(), span.start), ("main.lua", 29));
        // Across the include: no file holds it.
        let from = find(text, "1\nlocal b");
        assert_eq!(composed.locate_exact(Span::new(from, from + 8)), None);
        assert_eq!(composed.locate_exact(Span::new(0, text.len() + 1)), None);
    }

    #[test]
    fn includes_are_replaced_in_place_nested_and_once() {
        let composed = run(
            "s/main.lua",
            &[
                (
                    "s/main.lua",
                    "--- @include \"inc/a\"\n--- @include 'inc/b.lua';\nreturn a() + b()\n",
                ),
                (
                    "s/inc/a.lua",
                    "--- @include \"common\"\nlocal function a() return one() end\n",
                ),
                (
                    "s/inc/b.lua",
                    "-- @include \"common\"\nlocal function b() return one() end\n",
                ),
                ("s/inc/common.lua", "local function one() return 1 end\n"),
            ],
        )
        .unwrap();
        assert_eq!(
            composed.text,
            b"local function one() return 1 end\nlocal function a() return one() end\n\
             \nlocal function b() return one() end\nreturn a() + b()\n"
        );
        let names: Vec<&str> = composed.files.iter().map(|f| f.display.as_str()).collect();
        assert_eq!(
            names,
            [
                "s/main.lua",
                "s/inc/a.lua",
                "s/inc/common.lua",
                "s/inc/b.lua"
            ]
        );
        assert!(composed.has_includes());
    }

    #[test]
    fn a_span_of_the_composed_text_maps_to_its_file() {
        let composed = run(
            "main.lua",
            &[
                (
                    "main.lua",
                    "-- top\n--- @include \"lib\"\nreturn helper()\n",
                ),
                (
                    "lib.lua",
                    "local x = 1\nlocal function helper() return x end\n",
                ),
            ],
        )
        .unwrap();
        let at = find(&composed.text, "helper() return");
        let (file, span) = composed.locate(Span::new(at, at + 6));
        assert_eq!(file.display, "lib.lua");
        assert_eq!(&file.source[span.start..span.end], b"helper");
        let at = find(&composed.text, "return helper");
        let (file, span) = composed.locate(Span::new(at, at + 6));
        assert_eq!(file.display, "main.lua");
        assert_eq!(&file.source[span.start..span.end], b"return");
        let chain = composed.files.include_chain(1);
        assert_eq!(chain.len(), 1);
        assert_eq!(
            &chain[0].0.source[chain[0].1.start..chain[0].1.end],
            b"--- @include \"lib\""
        );
    }

    /// `count` files, `c0.lua` to `c{count-1}.lua`, each including the next
    /// and then declaring its own line.
    fn chain(count: usize) -> Vec<(String, String)> {
        (0..count)
            .map(|i| {
                let include = if i + 1 < count {
                    format!("--- @include \"c{}\"\n", i + 1)
                } else {
                    String::new()
                };
                (format!("c{i}.lua"), format!("{include}n = n + {i}\n"))
            })
            .collect()
    }

    #[test]
    fn a_long_chain_of_includes_maps_each_line_back_to_its_file() {
        let list = chain(1_000);
        let borrowed: Vec<(&str, &str)> = list
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let composed = run("c0.lua", &borrowed).unwrap();
        assert_eq!(composed.files.len(), 1_000);
        // The innermost file comes first, each includer's line after it.
        let lines: Vec<text::Line> = text::lines(&composed.text).collect();
        assert_eq!(lines.len(), 1_000);
        for (number, line) in lines.iter().enumerate() {
            let i = 999 - number;
            let own = &composed.text[line.start..line.end];
            assert_eq!(own, format!("n = n + {i}").as_bytes());
            let (file, span) = composed.locate(Span::new(line.start, line.end));
            assert_eq!(file.display, format!("c{i}.lua"));
            assert_eq!(&file.source[span.start..span.end], own);
            assert_eq!(composed.files.index_of(file), i);
            assert_eq!(composed.files.include_chain(i).len(), i);
        }
        let rendered = composed.render(Span::new(0, 1), "here", None);
        assert!(rendered.contains("--> c999.lua:1:1"), "{rendered}");
        assert_eq!(rendered.matches("= included from").count(), 999);
    }

    #[test]
    fn a_chain_deeper_than_a_threads_stack_would_recurse_composes() {
        let list = chain(50_000);
        let disk: HashMap<PathBuf, Vec<u8>> = list
            .iter()
            .map(|(path, text)| (PathBuf::from(path), text.clone().into_bytes()))
            .collect();
        let mut read = move |path: &Path| {
            disk.get(path)
                .cloned()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
        };
        // On a thread with a small stack: the expansion keeps its own.
        let composed = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                compose("c0.lua", Path::new("c0.lua"), list[0].1.clone(), &mut read)
                    .map(|composed| (composed.files.len(), text::lines(&composed.text).count()))
            })
            .unwrap()
            .join()
            .unwrap()
            .unwrap();
        assert_eq!(composed, (50_000, 50_000));
    }

    #[test]
    fn a_cycle_at_the_end_of_a_long_chain_names_the_files_in_it() {
        let mut list = chain(500);
        list[499].1 = "--- @include \"c497\"\n".to_owned();
        let borrowed: Vec<(&str, &str)> = list
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let error = run("c0.lua", &borrowed).unwrap_err();
        assert_eq!(error.source_file().display, "c499.lua");
        assert_eq!(
            error.message,
            "include cycle: c497.lua -> c498.lua -> c499.lua -> c497.lua"
        );
        assert_eq!(error.reached.len(), 499);
    }

    #[test]
    fn direct_includes_are_the_paths_a_file_names_itself() {
        let source = "--- @include \"../lib/a\"\n-- @include 'b.lua';\n\
                      --- @include \"/abs\"\n--- @include bad\nreturn 1\n";
        assert_eq!(
            direct_includes(Path::new("s/x/./main.lua"), source),
            [PathBuf::from("s/lib/a.lua"), PathBuf::from("s/x/b.lua")]
        );
        assert!(direct_includes(Path::new("x.lua"), "return 1\n").is_empty());
    }

    #[test]
    fn files_are_bytes_with_lua_line_endings() {
        // An included file that is not UTF-8 is included as it is; a
        // directive ends at a bare `\r` as any line does.
        let disk: HashMap<PathBuf, Vec<u8>> = [
            (
                PathBuf::from("main.lua"),
                b"-- top\r--- @include \"lib\"\rreturn helper()\r".to_vec(),
            ),
            (
                PathBuf::from("lib.lua"),
                b"local s = '\xff'\n\rlocal function helper() return s end\n\r".to_vec(),
            ),
        ]
        .into();
        let mut read = |path: &Path| Ok(disk[path].clone());
        let source = disk[Path::new("main.lua")].clone();
        let composed = compose("main.lua", Path::new("main.lua"), source, &mut read).unwrap();
        assert_eq!(
            composed.text,
            b"-- top\rlocal s = '\xff'\n\rlocal function helper() return s end\rreturn helper()\r"
        );
        let at = find(&composed.text, "helper() return");
        let rendered = composed.render(Span::new(at, at + 6), "m", None);
        assert!(rendered.contains(" --> lib.lua:2:16\n"), "{rendered}");
        assert!(
            rendered.contains("= included from main.lua:2"),
            "{rendered}"
        );
        let at = find(&composed.text, "return helper");
        let rendered = composed.render(Span::new(at, at + 6), "m", None);
        assert!(rendered.contains(" --> main.lua:3:1\n"), "{rendered}");
    }

    #[test]
    fn a_script_without_includes_is_itself() {
        let composed = run("x.lua", &[("x.lua", "return 1\n")]).unwrap();
        assert_eq!(composed.text, b"return 1\n");
        assert!(!composed.has_includes());
    }

    #[test]
    fn every_mistake_names_the_file_and_line_of_its_directive() {
        let error = run(
            "a.lua",
            &[
                ("a.lua", "\n--- @include \"b\"\n"),
                ("b.lua", "--- @include \"a\"\n"),
            ],
        )
        .unwrap_err();
        assert_eq!(error.source_file().display, "b.lua");
        assert!(
            error
                .message
                .contains("include cycle: a.lua -> b.lua -> a.lua"),
            "{error:?}"
        );

        // The files reached before the error are still known.
        assert_eq!(error.reached, [PathBuf::from("b.lua")]);

        let error = run("a.lua", &[("a.lua", "-- x\n--- @include \"gone\"\n")]).unwrap_err();
        assert_eq!(
            (error.source_file().display.as_str(), error.span.start),
            ("a.lua", 5)
        );
        assert!(
            error
                .message
                .contains("cannot include `gone.lua`: no such file")
        );

        for line in [
            "--- @include helpers",
            "--- @include \"x",
            "--- @includex \"y\"",
            "--- @include \"x\" extra",
        ] {
            let error = run("a.lua", &[("a.lua", line)]).unwrap_err();
            assert!(
                error.message.starts_with("malformed include"),
                "{line}: {error:?}"
            );
        }
        let error = run("a.lua", &[("a.lua", "--- @include \"/abs\"")]).unwrap_err();
        assert!(error.message.contains("absolute"));
        let error = run(
            "a.lua",
            &[
                ("a.lua", "--- @include \"b\""),
                ("b.lua", "#!lua\nreturn 1\n"),
            ],
        )
        .unwrap_err();
        assert!(error.message.contains("shebang"));
    }

    #[test]
    fn a_script_above_the_working_folder_includes_from_its_own_folder() {
        let composed = run(
            "../../x/a.lua",
            &[
                ("../../x/a.lua", "--- @include \"b\"\nreturn b\n"),
                ("../../x/b.lua", "--- @include \"../y/c\"\nlocal b = c\n"),
                ("../../y/c.lua", "local c = 1\n"),
            ],
        )
        .unwrap();
        let paths: Vec<&Path> = composed.files.iter().map(|f| f.path.as_path()).collect();
        assert_eq!(
            paths,
            [
                Path::new("../../x/a.lua"),
                Path::new("../../x/b.lua"),
                Path::new("../../y/c.lua")
            ]
        );
        assert_eq!(composed.files[2].display, "../../y/c.lua");
        assert_eq!(normalize(Path::new("a/../../b/./../c")), Path::new("../c"));
        assert_eq!(normalize(Path::new("/../a")), Path::new("/a"));
    }

    #[test]
    fn paths_resolve_from_the_including_file() {
        let composed = run(
            "s/x/main.lua",
            &[
                ("s/x/main.lua", "--- @include \"../lib/one\"\n"),
                ("s/lib/one.lua", "--- @include \"./two\"\n"),
                ("s/lib/two.lua", "return 2\n"),
            ],
        )
        .unwrap();
        assert_eq!(composed.text, b"return 2\n");
        assert_eq!(composed.files[2].display, "s/lib/two.lua");
    }
}
