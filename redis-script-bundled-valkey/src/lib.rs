//! Valkey's `valkey-server` and `valkey-cli`, built from the release source
//! vendored in this crate when the crate is built: a server for tests on a
//! machine that has none. `redis-script-test` uses it with its `bundled`
//! feature, after `REDIS_SCRIPT_SERVER` and `PATH`.
//!
//! ```
//! let server = redis_script_bundled_valkey::server();
//! assert!(server.ends_with("valkey-server"));
//! ```

#![warn(missing_docs)]

use std::path::Path;

/// The version of the vendored Valkey.
pub const VERSION: &str = "9.1.2";

/// The built `valkey-server`, in Cargo's output directory of this crate.
/// The path is inside the target directory of the build that made it:
/// after `cargo clean`, or with the target directory moved, it no longer
/// exists until the crate is built again.
pub fn server() -> &'static Path {
    Path::new(concat!(
        env!("REDIS_SCRIPT_BUNDLED_VALKEY_BIN"),
        "/valkey-server"
    ))
}

/// The built `valkey-cli`, beside [`server`].
pub fn cli() -> &'static Path {
    Path::new(concat!(
        env!("REDIS_SCRIPT_BUNDLED_VALKEY_BIN"),
        "/valkey-cli"
    ))
}
