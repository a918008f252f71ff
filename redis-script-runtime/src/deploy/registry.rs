//! Every binding linked into the program, found at run time without a
//! hand-kept list, and [`load_all`], which puts them all on a server.
//!
//! Each `#[redis_script]` expansion adds its [`Script`] to a slice that the
//! linker assembles (a `linkme` distributed slice): a binding is listed
//! exactly when its code is in the binary, whichever crate declares it.

use redis::{ConnectionLike, RedisResult, Value};

use crate::embedded::library::Library;
#[doc(hidden)]
pub use crate::embedded::linked::SCRIPTS;
pub use crate::embedded::linked::scripts;
use crate::embedded::script::Script;
use crate::error::{Error, ErrorKind};

/// The distinct scripts among `scripts`, by SHA1, each first as met.
fn distinct(scripts: impl Iterator<Item = &'static Script>) -> Vec<&'static Script> {
    let mut seen = std::collections::HashSet::new();
    scripts
        .filter(|script| seen.insert(script.sha1()))
        .collect()
}

/// The distinct libraries of the `#[redis_function]` bindings among
/// `scripts`, each first as met; two different codes under one library
/// name are an error, since loading both would leave whichever came last.
fn distinct_libraries(
    scripts: impl Iterator<Item = &'static Script>,
) -> Result<Vec<&'static Library>, Error> {
    let mut libraries: Vec<&'static Library> = Vec::new();
    for library in scripts.filter_map(Script::library) {
        match libraries
            .iter()
            .find(|known| known.name() == library.name())
        {
            Some(known) if known.code() == library.code() => {}
            Some(known) => {
                return Err(library.error(ErrorKind::Redis(redis::RedisError::from((
                    redis::ErrorKind::Client,
                    "two different libraries of one name are compiled in",
                    format!(
                        "`{}` and `{}` both declare the library `{}`; give each its own name",
                        known.file(),
                        library.file(),
                        library.name()
                    ),
                )))));
            }
            None => libraries.push(library),
        }
    }
    Ok(libraries)
}

/// What [`load_all`] put on the server.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Loaded {
    /// Each distinct script loaded with `SCRIPT LOAD` (one of the bindings
    /// that share its SHA1), in the order of [`scripts`].
    pub scripts: Vec<&'static Script>,
    /// Each distinct library of the `#[redis_function]` bindings, loaded
    /// with `FUNCTION LOAD REPLACE`.
    pub libraries: Vec<&'static Library>,
}

/// Loads every library of the program's `#[redis_function]` bindings with
/// `FUNCTION LOAD REPLACE`, then every script ([`scripts`]) into the
/// server's script cache with `SCRIPT LOAD`, each distinct one once, and
/// reports them: [`load`] of every binding. (On a cluster connection
/// redis-rs sends FUNCTION LOAD to every primary, which replicate it.)
///
/// Call it at start-up, and after a failover or a `SCRIPT FLUSH` if you
/// like: calls recover from NOSCRIPT on their own, but scripts added by
/// SCRIPT LOAD are never evicted from the cache (see
/// [`NoScriptFallback`](crate::NoScriptFallback)), and a server that has
/// every script before the first request serves pipelines without a miss.
///
/// On one server, all the script loads go in one pipelined round trip. On a
/// `redis::cluster::ClusterConnection` (which does not pipeline), each
/// SCRIPT LOAD is a command of its own, which redis-rs sends to every node
/// of the cluster.
///
/// Fails with the error of the first library or script the server refused
/// (e.g. a proxy that refuses SCRIPT LOAD), or whose SHA1 differs from the
/// embedded one; those before it are loaded.
///
/// ```no_run
/// # use redis_script_runtime::redis;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let client = redis::Client::open("redis://127.0.0.1/")?;
/// let mut con = client.get_connection()?;
/// let loaded = redis_script_runtime::load_all(&mut con)?; // `redis_script::` in the facade
/// println!("{} scripts loaded", loaded.scripts.len());
/// # Ok(()) }
/// ```
pub fn load_all(con: &mut dyn ConnectionLike) -> Result<Loaded, Error> {
    load(con, scripts())
}

/// [`load_all`] for some of the bindings, e.g. one crate's or module's: the
/// libraries of the `#[redis_function]` bindings among them, each once, with
/// `FUNCTION LOAD REPLACE`, then their distinct scripts with `SCRIPT LOAD`.
///
/// ```no_run
/// # use redis_script_runtime::{redis, registry};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let mut con = redis::Client::open("redis://127.0.0.1/")?.get_connection()?;
/// let jobs = registry::scripts().filter(|s| s.binding_path().starts_with("my_app::jobs"));
/// let loaded = registry::load(&mut con, jobs)?;
/// println!("{} libraries, {} scripts", loaded.libraries.len(), loaded.scripts.len());
/// # Ok(()) }
/// ```
pub fn load(
    con: &mut dyn ConnectionLike,
    bindings: impl IntoIterator<Item = &'static Script>,
) -> Result<Loaded, Error> {
    let (libraries, scripts) = split(bindings)?;
    for library in &libraries {
        library.load(con)?;
    }
    if con.supports_pipelining() && !scripts.is_empty() {
        let mut pipe = redis::pipe();
        for script in &scripts {
            pipe.add_command(script.load_cmd());
        }
        // Each script's failure is its own, told by the script it concerns.
        pipe.ignore_errors();
        let replies: RedisResult<Vec<Value>> = pipe.query(con);
        check_replies(&scripts, replies)?;
    } else {
        for script in &scripts {
            script.load(con)?;
        }
    }
    Ok(Loaded { scripts, libraries })
}

/// The distinct libraries and the distinct scripts among `bindings`.
fn split(
    bindings: impl IntoIterator<Item = &'static Script>,
) -> Result<(Vec<&'static Library>, Vec<&'static Script>), Error> {
    let bindings: Vec<&'static Script> = bindings.into_iter().collect();
    let libraries = distinct_libraries(bindings.iter().copied())?;
    let scripts = distinct(
        bindings
            .into_iter()
            .filter(|script| script.library().is_none()),
    );
    Ok((libraries, scripts))
}

/// The async form of [`load_all`], for `MultiplexedConnection`,
/// `ConnectionManager`, the async cluster connection and any other
/// `redis::aio::ConnectionLike`. It sends one `SCRIPT LOAD` after another,
/// because an async cluster connection sends a pipeline to a single node
/// and the trait does not tell a cluster connection apart.
#[cfg(feature = "aio")]
#[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
pub async fn load_all_async<C: redis::aio::ConnectionLike>(con: &mut C) -> Result<Loaded, Error> {
    load_async(con, scripts()).await
}

/// The async form of [`load`], sending one load after another as
/// [`load_all_async`] does.
#[cfg(feature = "aio")]
#[cfg_attr(docsrs, doc(cfg(feature = "aio")))]
pub async fn load_async<C: redis::aio::ConnectionLike>(
    con: &mut C,
    bindings: impl IntoIterator<Item = &'static Script>,
) -> Result<Loaded, Error> {
    let (libraries, scripts) = split(bindings)?;
    for library in &libraries {
        library.load_async(con).await?;
    }
    for script in &scripts {
        script.load_async(con).await?;
    }
    Ok(Loaded { scripts, libraries })
}

/// Checks the replies of a pipeline of `SCRIPT LOAD`s, one per script.
fn check_replies(
    scripts: &[&'static Script],
    replies: RedisResult<Vec<Value>>,
) -> Result<(), Error> {
    let Some(first) = scripts.first() else {
        return Ok(());
    };
    let mut replies = match replies {
        Ok(replies) => replies.into_iter(),
        Err(error) => return Err(Error::redis(first, error).during_load()),
    };
    for script in scripts {
        let reply = replies.next().ok_or_else(|| {
            redis::RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "a pipeline of SCRIPT LOADs returned fewer replies than it sent",
            ))
        });
        script.check_loaded(reply)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded::script::ScriptParts;

    static V1: Library = Library::new("lib", "v1.lua", "#!lua name=lib\n-- v1\n");
    static V1_AGAIN: Library = Library::new("lib", "v1.lua", "#!lua name=lib\n-- v1\n");
    static V2: Library = Library::new("lib", "v2.lua", "#!lua name=lib\n-- v2\n");

    const fn function_of(library: &'static Library) -> Script {
        Script::from_parts(ScriptParts {
            name: "f",
            binding_path: "tests::f",
            file: library.file(),
            source: library.code(),
            sha1: "",
            key_names: &[],
            arg_names: &[],
            variadic_keys: false,
            variadic: false,
            reply_type: "()",
            reply_shape: &crate::embedded::shape::Shape::Any,
            flags: &[],
            read_only: false,
            function: Some((library, "f")),
        })
    }

    static F1: Script = function_of(&V1);
    static F1_AGAIN: Script = function_of(&V1_AGAIN);
    static F2: Script = function_of(&V2);

    #[test]
    fn one_library_is_loaded_once_and_two_of_one_name_are_refused() {
        let one = distinct_libraries([&F1, &F1_AGAIN].into_iter()).unwrap();
        assert_eq!(one.len(), 1);
        let error = distinct_libraries([&F1, &F2].into_iter()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`v1.lua` and `v2.lua` both declare the library `lib`"),
            "{error}"
        );
    }
}
