//! The files of one run, each read from disk once: the pass that finds
//! which files are included, the check of each script, and the
//! composition of every script that includes a file all take its bytes
//! from here, and the findings quote the bytes their report keeps.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use redis_script_analyzer::compose;

/// The bytes of each file read, or why it could not be, by its path made
/// plain without asking the file system ([`compose::normalize`]: `a/./b`
/// and `a/c/../b` are one file), as the walk and the includes spell paths
/// alike. Resolving links too (`canonicalize`) would cost a system call
/// for each part of each path, more than the read it saves.
#[derive(Debug, Default)]
pub(crate) struct Disk {
    files: HashMap<PathBuf, Result<Vec<u8>, (io::ErrorKind, String)>>,
    reads: usize,
}

impl Disk {
    /// The bytes of the file at `path` (as the server reads a script: they
    /// need not be UTF-8), read from disk the first time only.
    pub(crate) fn read(&mut self, path: &Path) -> io::Result<Vec<u8>> {
        let reads = &mut self.reads;
        let file = self
            .files
            .entry(compose::normalize(path))
            .or_insert_with(|| {
                *reads += 1;
                std::fs::read(path).map_err(|error| (error.kind(), error.to_string()))
            });
        match file {
            Ok(bytes) => Ok(bytes.clone()),
            Err((kind, why)) => Err(io::Error::new(*kind, why.clone())),
        }
    }

    /// How many times a file was read from disk.
    #[cfg(test)]
    pub(crate) fn reads(&self) -> usize {
        self.reads
    }
}
