//! The files a script is made of, kept with each one's lines: a finding
//! carries only a file's index and a byte span, and what people read (line
//! and column as Lua counts them, the quoted line, the includes that
//! brought the file in) is made from these when it is shown.

use std::ops::Deref;
use std::path::PathBuf;

use crate::report::{Lines, Snippet};
use crate::syntax::tree::Span;

/// One file of a composed script: the script itself (index 0) or an
/// included file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as shown to people: the script's as given, an included
    /// file's joined onto its includer's folder (`scripts/includes/x.lua`).
    pub display: String,
    /// The path on disk, as given to the reader.
    pub path: PathBuf,
    /// The file's own bytes.
    pub source: Vec<u8>,
    /// Which file included it, and the directive's span in that file;
    /// `None` for the script itself.
    pub included_from: Option<(usize, Span)>,
}

/// The files of one script, the script first, each with its lines. Reads
/// as a slice of [`SourceFile`]s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceFiles {
    files: Vec<SourceFile>,
    /// The lines of each file, by index: a span is placed in its file
    /// without a search of the file's text.
    lines: Vec<Lines>,
}

impl SourceFiles {
    /// Adds `file`, and returns its index.
    pub(crate) fn push(&mut self, file: SourceFile) -> usize {
        self.lines.push(Lines::new(&file.source));
        self.files.push(file);
        self.files.len() - 1
    }

    /// The lines of file `index` (the last file's past the end).
    pub fn lines(&self, index: usize) -> &Lines {
        &self.lines[index.min(self.lines.len().saturating_sub(1))]
    }

    /// The index of `file`, one of these (0 for a file that is not).
    pub fn index_of(&self, file: &SourceFile) -> usize {
        // By address, not by a search: a finding in a script of many files
        // is placed in constant time.
        let size = std::mem::size_of::<SourceFile>();
        let offset =
            (file as *const SourceFile as usize).wrapping_sub(self.files.as_ptr() as usize);
        let index = offset / size;
        if offset.is_multiple_of(size) && index < self.files.len() {
            index
        } else {
            0
        }
    }

    /// The 1-based line and column (in characters of the line as shown)
    /// of byte `offset` of file `index`, as Lua counts lines.
    pub fn line_column(&self, index: usize, offset: usize) -> (usize, usize) {
        let Some(file) = self.files.get(index) else {
            return (1, 1);
        };
        let (line, column, _) = self.lines(index).locate(&file.source, offset);
        (line, column)
    }

    /// The chain of includes that brought file `index` in, nearest first,
    /// as `(includer, directive span)` pairs.
    pub fn include_chain(&self, mut index: usize) -> Vec<(&SourceFile, Span)> {
        let mut chain = Vec::new();
        while let Some((includer, span)) = self.files.get(index).and_then(|f| f.included_from) {
            chain.push((&self.files[includer], span));
            index = includer;
        }
        chain
    }

    /// [`include_chain`](Self::include_chain) as a finding shows it: each
    /// including file, as shown, and the line of its directive.
    pub fn included_from(&self, index: usize) -> Vec<(&str, usize)> {
        self.include_chain(index)
            .into_iter()
            .map(|(includer, directive)| {
                let (line, _) = self.line_column(self.index_of(includer), directive.start);
                (includer.display.as_str(), line)
            })
            .collect()
    }

    /// `message` about `span` of file `index`, with the includes that
    /// brought the file in, ready to draw.
    pub fn snippet<'a>(&'a self, index: usize, span: Span, message: &'a str) -> Snippet<'a> {
        let index = index.min(self.files.len().saturating_sub(1));
        let file = &self.files[index];
        Snippet::new(&file.display, &file.source, span, message)
            .lines(self.lines(index))
            .included_from(self.included_from(index))
    }
}

impl Deref for SourceFiles {
    type Target = [SourceFile];

    fn deref(&self) -> &[SourceFile] {
        &self.files
    }
}
