//! A Redis Functions library, as `#[redis_function]` embeds it: loaded with
//! `FUNCTION LOAD REPLACE`, told apart from another version of itself by
//! its code.

use redis::{Cmd, ConnectionLike, RedisResult, Value};

use crate::error::{Error, ErrorKind};

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

/// Whether a server has a library, and in which version: see
/// [`Library::status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LibraryStatus {
    /// The server has the library with exactly the compiled-in code.
    Current,
    /// The server has no library of that name.
    Missing,
    /// The server has a library of that name with other code: another
    /// version, loaded by another build of the application (or by hand).
    Other,
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

    /// `FUNCTION LOAD REPLACE <code>`.
    pub fn load_cmd(&self) -> Cmd {
        let mut cmd = redis::cmd("FUNCTION");
        cmd.arg("LOAD").arg("REPLACE").arg(self.code);
        cmd
    }

    /// Loads the library with `FUNCTION LOAD REPLACE`, replacing any version
    /// the server has. On a cluster connection, redis-rs sends it to every
    /// primary. Fails if the server refuses the code, e.g. because another
    /// library registers a function of the same name.
    pub fn load(&self, con: &mut dyn ConnectionLike) -> Result<(), Error> {
        self.check_loaded(con.req_command(&self.load_cmd()))
    }

    /// The async form of [`load`](Self::load).
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn load_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
    ) -> Result<(), Error> {
        self.check_loaded(con.req_packed_command(&self.load_cmd()).await)
    }

    /// The reply of FUNCTION LOAD: the library's name.
    pub(crate) fn check_loaded(&self, reply: RedisResult<Value>) -> Result<(), Error> {
        self.read_loaded(reply).map_err(|kind| self.error(kind))
    }

    /// What is wrong with a reply of FUNCTION LOAD, if anything, for the
    /// caller to name: this library, or the binding that loaded it.
    pub(crate) fn read_loaded(&self, reply: RedisResult<Value>) -> Result<(), ErrorKind> {
        let name: String = decode(reply, "String")?;
        if name == self.name {
            Ok(())
        } else {
            Err(ErrorKind::Redis(redis::RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "FUNCTION LOAD replied another library's name",
                name,
            ))))
        }
    }

    /// `FUNCTION LIST LIBRARYNAME <name> WITHCODE`, which matches names by
    /// pattern: the library's own entry is picked out by its exact name.
    fn status_cmd(&self) -> Cmd {
        let mut cmd = redis::cmd("FUNCTION");
        cmd.arg("LIST")
            .arg("LIBRARYNAME")
            .arg(self.name)
            .arg("WITHCODE");
        cmd
    }

    /// Whether the server has this library, in this version: one `FUNCTION
    /// LIST` round trip that compares the server's code with the compiled-in
    /// code, byte for byte. Use it at start-up or in a health check to see
    /// that a deploy has reached a server; calls do not need it.
    pub fn status(&self, con: &mut dyn ConnectionLike) -> Result<LibraryStatus, Error> {
        let reply = con.req_command(&self.status_cmd());
        self.read_status(reply)
    }

    /// The async form of [`status`](Self::status).
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn status_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
    ) -> Result<LibraryStatus, Error> {
        let reply = con.req_packed_command(&self.status_cmd()).await;
        self.read_status(reply)
    }

    fn read_status(&self, reply: RedisResult<Value>) -> Result<LibraryStatus, Error> {
        // One map (RESP3) or flat array (RESP2) of fields per library.
        let libraries: Vec<std::collections::HashMap<String, Value>> =
            decode(reply, "FUNCTION LIST").map_err(|kind| self.error(kind))?;
        let text = |value: Option<&Value>| match value {
            Some(Value::BulkString(bytes)) => Some(bytes.clone()),
            Some(Value::SimpleString(text)) => Some(text.clone().into_bytes()),
            _ => None,
        };
        let ours = libraries.iter().find(|library| {
            text(library.get("library_name")).as_deref() == Some(self.name.as_bytes())
        });
        Ok(match ours {
            None => LibraryStatus::Missing,
            Some(library)
                if text(library.get("library_code")).as_deref() == Some(self.code.as_bytes()) =>
            {
                LibraryStatus::Current
            }
            Some(_) => LibraryStatus::Other,
        })
    }

    /// An error of loading or checking this library, which runs no function.
    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::of_library(self, kind)
    }
}

/// A reply of a library command, as `T`: a server error or one that does
/// not convert, as the [`ErrorKind`] of the error.
fn decode<T: redis::FromRedisValue>(
    reply: RedisResult<Value>,
    expected: &'static str,
) -> Result<T, ErrorKind> {
    let value = match reply {
        Ok(Value::ServerError(error)) => Err(error.into()),
        other => other,
    }
    .map_err(ErrorKind::Redis)?;
    T::from_redis_value(value).map_err(|source| ErrorKind::Reply { expected, source })
}
