//! Putting a binding's code on a server: `SCRIPT LOAD` of a script,
//! `FUNCTION LOAD REPLACE` of a library, and the check of what the server
//! answered (the SHA1 of a script, the name of a library).
//!
//! These are methods of [`Script`] and [`Library`], which the macro embeds
//! one floor down; they live here because they send commands and report
//! errors, which that floor does not know.

use redis::{Cmd, ConnectionLike, RedisResult, Value};

use crate::embedded::library::Library;
use crate::embedded::script::Script;
use crate::embedded::shape::Shape;
use crate::error::{Error, ErrorKind};
use crate::reply;

impl Script {
    /// The command that puts this binding's code on a server: `SCRIPT LOAD
    /// source` for a script; for a `#[redis_function]` binding, its
    /// library's `FUNCTION LOAD REPLACE code` ([`Library::load_cmd`]).
    pub fn load_cmd(&self) -> Cmd {
        match self.library() {
            Some(library) => library.load_cmd(),
            None => {
                let mut cmd = redis::cmd("SCRIPT");
                cmd.arg("LOAD").arg(self.source());
                cmd
            }
        }
    }

    /// Puts the binding's code on the server: a script into the server's
    /// script cache with `SCRIPT LOAD`, a `#[redis_function]` binding's
    /// library with `FUNCTION LOAD REPLACE` (as [`Library::load`] does, so
    /// loading each binding of [`registry::scripts`](crate::registry::scripts)
    /// loads every script and library; [`registry::load`](crate::registry::load)
    /// does it with each library and script once).
    ///
    /// Scripts loaded this way are never evicted, where EVAL-cached ones can
    /// be (Valkey and Redis from 7.4 on keep the 500 most recently used; see
    /// [`NoScriptFallback`](crate::NoScriptFallback)), so this is the way to
    /// warm a server before a pipeline of EVALSHA calls. Fails if the
    /// server's SHA1 differs from the embedded one (for a library: if it
    /// replies another library's name). Whatever the failure, nothing ran:
    /// the error's [`applied`](Error::applied) is
    /// [`Applied::No`](crate::Applied::No), and it names this binding.
    pub fn load(&self, con: &mut dyn ConnectionLike) -> Result<(), Error> {
        let reply = con.req_command(&self.load_cmd());
        self.check_loaded(reply)
    }

    /// The async form of [`load`](Self::load).
    #[cfg(feature = "aio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
    pub async fn load_async<C: redis::aio::ConnectionLike>(
        &self,
        con: &mut C,
    ) -> Result<(), Error> {
        let reply = con.req_packed_command(&self.load_cmd()).await;
        self.check_loaded(reply)
    }

    /// Checks the reply of [`load_cmd`](Self::load_cmd): the SHA1 of a
    /// script, the name of a library.
    pub(crate) fn check_loaded(
        &self,
        reply: redis::RedisResult<redis::Value>,
    ) -> Result<(), Error> {
        // Whatever fails here, nothing has run.
        if let Some(library) = self.library() {
            return library
                .read_loaded(reply)
                .map_err(|kind| Error::new(self, kind).during_load());
        }
        let sha1: String =
            reply::decode(self, "String", &Shape::Any, reply).map_err(Error::during_load)?;
        if sha1.eq_ignore_ascii_case(self.sha1()) {
            Ok(())
        } else {
            Err(Error::sha1_mismatch(self, sha1).during_load())
        }
    }
}

impl Library {
    /// `FUNCTION LOAD REPLACE <code>`.
    pub fn load_cmd(&self) -> Cmd {
        let mut cmd = redis::cmd("FUNCTION");
        cmd.arg("LOAD").arg("REPLACE").arg(self.code());
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
    fn check_loaded(&self, reply: RedisResult<Value>) -> Result<(), Error> {
        self.read_loaded(reply).map_err(|kind| self.error(kind))
    }

    /// What is wrong with a reply of FUNCTION LOAD, if anything, for the
    /// caller to name: this library, or the binding that loaded it.
    fn read_loaded(&self, reply: RedisResult<Value>) -> Result<(), ErrorKind> {
        let name: String = decode(reply, "String")?;
        if name == self.name() {
            Ok(())
        } else {
            Err(ErrorKind::Redis(redis::RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "FUNCTION LOAD replied another library's name",
                name,
            ))))
        }
    }

    /// An error of loading or checking this library, which runs no function.
    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::of_library(self, kind)
    }
}

/// A reply of a library command, as `T`: a server error or one that does
/// not convert, as the [`ErrorKind`] of the error.
pub(super) fn decode<T: redis::FromRedisValue>(
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
