//! Which version of a library a server has: [`Library::status`], one
//! `FUNCTION LIST` compared with the compiled-in code.

use redis::{Cmd, ConnectionLike, RedisResult, Value};

use super::load::decode;
use crate::embedded::library::Library;
use crate::error::Error;

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
    /// `FUNCTION LIST LIBRARYNAME <name> WITHCODE`, which matches names by
    /// pattern: the library's own entry is picked out by its exact name.
    fn status_cmd(&self) -> Cmd {
        let mut cmd = redis::cmd("FUNCTION");
        cmd.arg("LIST")
            .arg("LIBRARYNAME")
            .arg(self.name())
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
            text(library.get("library_name")).as_deref() == Some(self.name().as_bytes())
        });
        Ok(match ours {
            None => LibraryStatus::Missing,
            Some(library)
                if text(library.get("library_code")).as_deref() == Some(self.code().as_bytes()) =>
            {
                LibraryStatus::Current
            }
            Some(_) => LibraryStatus::Other,
        })
    }
}
