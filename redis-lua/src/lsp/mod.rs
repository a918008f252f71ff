//! `redis-lua lsp`: a language server over stdin and stdout, for editors.
//! It publishes, as the user types, what `redis-lua check` would report on
//! each open document (`diagnostics.rs`), explains a command's name on
//! hover (`hover.rs`), completes command names and subcommands in a call's
//! strings (`completion.rs`; both learn which string the cursor is in from
//! `call_site.rs` and what it stands for from `slot.rs`), and offers quick
//! fixes (`actions.rs`); the
//! main loop is `server.rs`. The analysis is the command line's: this is a
//! second front end over the same engine.

mod actions;
mod call_site;
mod completion;
mod diagnostics;
mod documents;
mod hover;
mod includers;
mod position;
mod protocol;
mod server;
mod slot;

/// Serves the language server over `connection` (a client's messages in,
/// the server's out) until the client's `exit`; returns the exit status as
/// [`run`] does. For a harness that drives the server in memory
/// (`lsp_server::Connection::memory`), as the benchmarks do.
#[doc(hidden)]
pub fn serve(connection: &lsp_server::Connection) -> i32 {
    server::serve(connection)
}

/// Runs the language server on stdin and stdout until the client's `exit`;
/// returns the exit status: 0 when `shutdown` came before `exit`, 1
/// otherwise (or when the client's messages cannot be read).
pub fn run() -> i32 {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let status = server::serve(&connection);
    // The writer stops once every sender is gone.
    drop(connection);
    match io_threads.join() {
        Ok(()) => status,
        Err(error) => {
            eprintln!("redis-lua lsp: {error}");
            1
        }
    }
}
