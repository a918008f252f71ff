//! The documents the editor has open: their text as last sent, which wins
//! over the file on disk, for the document itself and for a script that
//! includes it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use redis_script_analyzer::compose;

use super::position::LineIndex;
use super::protocol::{Change, Uri};

/// One open document.
#[derive(Debug)]
pub(crate) struct Document {
    /// Its text, as the editor last sent it.
    pub(crate) text: String,
    /// Its lines, as LSP counts them.
    pub(crate) lines: LineIndex,
    /// The version the editor gave that text.
    pub(crate) version: i32,
    /// Its path on disk, when its URI is a `file:` URI.
    pub(crate) path: Option<PathBuf>,
}

impl Document {
    fn new(uri: &Uri, text: String, version: i32) -> Document {
        Document {
            lines: LineIndex::new(&text),
            text,
            version,
            path: path_of(uri),
        }
    }

    /// Applies the editor's changes, in order: a change with a range
    /// replaces that range (positions are in the text as the changes before
    /// it left it), one without replaces the whole text.
    pub(crate) fn apply(&mut self, changes: Vec<Change>, version: i32) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.lines.offset(&self.text, range.start);
                    let end = self.lines.offset(&self.text, range.end).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
                None => self.text = change.text,
            }
            self.lines = LineIndex::new(&self.text);
        }
        self.version = version;
    }
}

/// Every open document, by URI.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    open: HashMap<Uri, Document>,
    /// The URI of each open document that has a path, by its path made
    /// plain ([`compose::normalize`]), as includes name files.
    by_path: HashMap<PathBuf, Uri>,
}

impl Documents {
    /// Opens (or reopens) `uri` with `text`.
    pub(crate) fn open(&mut self, uri: Uri, text: String, version: i32) {
        let document = Document::new(&uri, text, version);
        if let Some(path) = &document.path {
            self.by_path.insert(compose::normalize(path), uri.clone());
        }
        self.open.insert(uri, document);
    }

    /// Forgets `uri`.
    pub(crate) fn close(&mut self, uri: &Uri) {
        if let Some(path) = self.open.remove(uri).and_then(|document| document.path) {
            self.by_path.remove(&compose::normalize(&path));
        }
    }

    /// The open document `uri`.
    pub(crate) fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri)
    }

    /// Every open document's URI.
    pub(crate) fn uris(&self) -> impl Iterator<Item = &Uri> {
        self.open.keys()
    }

    /// The open document `uri`, to change it.
    pub(crate) fn get_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.open.get_mut(uri)
    }

    /// The open document at `path`, if one is, with its URI.
    pub(crate) fn at_path(&self, path: &Path) -> Option<(&Uri, &Document)> {
        let uri = self.by_path.get(&compose::normalize(path))?;
        Some((uri, self.open.get(uri)?))
    }

    /// The URI of the file at `path`: the open document's, or one made of
    /// the path.
    pub(crate) fn uri_at(&self, path: &Path) -> Uri {
        match self.at_path(path) {
            Some((uri, _)) => uri.clone(),
            None => uri_of(path),
        }
    }

    /// The bytes of the file at `path`: the open document's text if it is
    /// open, else the file on disk. Includes are read through this.
    pub(crate) fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.at_path(path) {
            Some((_, document)) => Ok(document.text.clone().into_bytes()),
            None => std::fs::read(path),
        }
    }
}

/// The path of a `file:` URI (`file:///home/a%20b/x.lua`), percent-decoded;
/// `None` for another scheme, a host other than `localhost`, or a path that
/// does not decode to UTF-8.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let (host, path) = rest.split_at(rest.find('/')?);
    if !host.is_empty() && host != "localhost" {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_decode(path)?;
    // `/C:/x` on Windows is `C:/x`.
    if cfg!(windows) && decoded.as_bytes().get(2) == Some(&b':') {
        return Some(PathBuf::from(&decoded[1..]));
    }
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path.
pub(crate) fn uri_of(path: &Path) -> Uri {
    Uri(crate::output::file_uri(path))
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::protocol::{Position, Range};

    fn uri(text: &str) -> Uri {
        Uri(text.to_owned())
    }

    #[test]
    fn file_uris_are_paths() {
        assert_eq!(
            path_of(&uri("file:///home/a%20b/caf%C3%A9.lua")),
            Some(PathBuf::from("/home/a b/café.lua"))
        );
        assert_eq!(
            path_of(&uri("file://localhost/x.lua")),
            Some(PathBuf::from("/x.lua"))
        );
        assert_eq!(path_of(&uri("untitled:Untitled-1")), None);
        assert_eq!(path_of(&uri("file://server/x.lua")), None);
        assert_eq!(path_of(&uri("file:///x%FF.lua")), None);
        let path = Path::new("/home/a b/café.lua");
        assert_eq!(path_of(&uri_of(path)).as_deref(), Some(path));
    }

    #[test]
    fn changes_apply_in_order() {
        let uri = uri("file:///x.lua");
        let mut documents = Documents::default();
        documents.open(uri.clone(), "return 'é'\n".to_owned(), 1);
        let change = |range: Option<Range>, text: &str| Change {
            range,
            text: text.to_owned(),
        };
        let at = |line, character| Position::new(line, character);
        let document = documents.get_mut(&uri).unwrap();
        document.apply(
            vec![
                // After the `é` (one UTF-16 unit, two bytes).
                change(Some(Range::new(at(0, 9), at(0, 9))), "è"),
                change(Some(Range::new(at(1, 0), at(1, 0))), "-- end"),
                change(Some(Range::new(at(0, 0), at(0, 6))), "local s ="),
            ],
            2,
        );
        assert_eq!(document.text, "local s = 'éè'\n-- end");
        assert_eq!(document.version, 2);
        document.apply(vec![change(None, "return 1")], 3);
        assert_eq!(document.text, "return 1");
        assert_eq!(
            documents.read(Path::new("/./x.lua")).unwrap(),
            b"return 1".to_vec()
        );
        documents.close(&uri);
        assert!(documents.at_path(Path::new("/x.lua")).is_none());
    }
}
