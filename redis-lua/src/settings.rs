//! The settings a check runs under: the command line's flags, then the
//! config's settings for each file.

use std::path::Path;

use redis_script_analyzer::Allowed;
use redis_script_analyzer::lint::FileOptions;
use redis_script_analyzer::servers::Servers;

use crate::config::{self, Config};

/// Settings that hold for every file, before the config's per-file ones.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--server`s (empty: the config's, or every server).
    pub servers: Servers,
    /// `--keys`.
    pub keys: Option<usize>,
    /// `--allow`s.
    pub allowed: Allowed,
    /// `--cluster`.
    pub cluster: bool,
    /// The config file, if one is read.
    pub config: Option<Config>,
}

impl Settings {
    /// The settings of `redis-lua check` without flags: the nearest
    /// `redis-lua.toml` in `start` or a folder above it, if there is one.
    pub fn from_nearest_config(start: &Path) -> Result<Settings, String> {
        let config = Config::find(start)
            .map(|path| Config::read(&path))
            .transpose()?;
        Ok(Settings {
            // No `--server`: the config's servers, or every server.
            servers: Servers::empty(),
            config,
            ..Settings::default()
        })
    }

    /// How the file at `path` is checked: the flags, then the config's
    /// settings for that file; `None` when the config excludes it.
    pub fn file_options(&self, path: &Path) -> Option<FileOptions> {
        let per_file = self.config.as_ref().map(|config| config.for_file(path));
        match per_file {
            Some(file) if file.excluded => None,
            _ => Some(self.options(per_file)),
        }
    }

    /// The servers the file at `path` is checked for.
    pub fn servers_for(&self, path: &Path) -> Servers {
        let per_file = self.config.as_ref().map(|config| config.for_file(path));
        self.servers(per_file)
    }

    fn servers(&self, per_file: Option<config::ForFile>) -> Servers {
        if !self.servers.is_empty() {
            return self.servers;
        }
        match per_file {
            Some(file) if !file.servers.is_empty() => file.servers,
            _ => Servers::ALL,
        }
    }

    /// The options of a file the config says `per_file` of (excluded or not).
    pub(crate) fn options(&self, per_file: Option<config::ForFile>) -> FileOptions {
        let (mut keys, mut allowed) = (self.keys, self.allowed);
        if let Some(file) = per_file {
            keys = keys.or(file.keys);
            allowed = allowed.union(file.allowed);
        }
        FileOptions::default()
            .servers(self.servers(per_file))
            .keys(keys)
            .keys_from_name(self.config.as_ref().is_none_or(|c| c.keys_from_name))
            .allowed(allowed)
            .cluster(self.cluster || self.config.as_ref().is_some_and(|c| c.cluster))
    }
}
