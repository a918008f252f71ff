//! A Redis Functions library, as `#[redis_function]` embeds it: its name,
//! its file and its code. Loading it (`FUNCTION LOAD REPLACE`) and asking
//! a server which version it has are deployment, in `deploy`.

/// A Lua library of Redis Functions (`#!lua name=<library>`), compiled in.
///
/// Each `#[redis_function]` binding `foo` has its library as `foo::LIBRARY`.
/// Functions persist on the server (in its RDB and AOF files, and on its
/// replicas), unlike the script cache; a call whose library is missing, or
/// is there in a version without the function, loads this one and retries
/// once. [`status`](Self::status) tells whether the server runs this very
/// version.
#[derive(Debug)]
pub struct Library {
    name: &'static str,
    file: &'static str,
    code: &'static str,
}

impl Library {
    /// Builds the description; called only by generated code.
    #[doc(hidden)]
    pub const fn new(name: &'static str, file: &'static str, code: &'static str) -> Library {
        Library { name, file, code }
    }

    /// The library's name, from its `#!lua name=...` line.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The Lua file, as written in the attribute.
    pub const fn file(&self) -> &'static str {
        self.file
    }

    /// The code, byte for byte as FUNCTION LOAD sends it.
    pub const fn code(&self) -> &'static str {
        self.code
    }
}
